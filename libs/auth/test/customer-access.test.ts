// The interceptor's per-call customer check: "restricted: true disables all access", expiry,
// deletion; and the directory's network-owner status replacing the token's claim.
import { describe, expect, it } from "vitest";
import { Code } from "@connectrpc/connect";
import { createInMemoryTenantDirectory, tenantBlock } from "../src/index.js";
import { bearer, expectError, NETWORK_OWNER, MEMBERS, OTHER_TENANT, parseScope, probe, Role, token } from "./support.js";

describe("auth interceptor: the caller's customer is checked on every call", () => {
  it("a restricted customer's valid token is refused on its next call (403), and accepted again once lifted", async () => {
    const directory = createInMemoryTenantDirectory();
    const { client, handled } = probe({ directory });
    const t = await token({ role: Role.VIEWER, customerId: OTHER_TENANT });
    await client.viewerRead({}, { headers: bearer(t) });
    directory.setAccess(OTHER_TENANT, { restricted: true });
    await expectError(client.viewerRead({}, { headers: bearer(t) }), Code.PermissionDenied, "auth.error.customerRestricted");
    directory.setAccess(OTHER_TENANT, { restricted: false });
    await client.viewerRead({}, { headers: bearer(t) });
    expect(handled).toEqual(["viewerRead", "viewerRead"]);
  });

  it("'expiration triggers device lockout': an expired customer's devices are refused (403) from its expiration date on, its users are not; a deleted one is unauthenticated (401); an unknown one passes", async () => {
    let now = 1_000_000;
    const directory = createInMemoryTenantDirectory();
    const { client } = probe({ directory, now: () => now });
    const t = await token({ role: Role.OWNER, customerId: OTHER_TENANT });
    const device = await token({ role: Role.DEVICE_USER, customerId: OTHER_TENANT });
    directory.setAccess(OTHER_TENANT, { expirationDate: now + 10 });
    await client.sensitiveChange({}, { headers: bearer(device) });
    now += 10;
    await expectError(client.sensitiveChange({}, { headers: bearer(device) }), Code.PermissionDenied, "auth.error.customerExpired");
    await client.ownerWrite({}, { headers: bearer(t) });
    directory.setAccess(OTHER_TENANT, { deleted: true });
    await expectError(client.ownerWrite({}, { headers: bearer(t) }), Code.Unauthenticated, "auth.error.customerDeleted");
    const unknown = await token({ role: Role.OWNER, customerId: 777 });
    await client.ownerWrite({}, { headers: bearer(unknown) });
  });

  it("a token claiming network owner loses the member scope once the directory says it was demoted", async () => {
    const directory = createInMemoryTenantDirectory([[NETWORK_OWNER, MEMBERS]]);
    const { client } = probe({ directory });
    const t = await token({ role: Role.OWNER, customerId: NETWORK_OWNER, networkOwner: true });
    expect(parseScope((await client.viewerRead({}, { headers: bearer(t) })).scope)).toEqual({ kind: "tenants", customerIds: [NETWORK_OWNER, ...MEMBERS] });
    directory.setAccess(NETWORK_OWNER, { networkOwner: false });
    expect(parseScope((await client.viewerRead({}, { headers: bearer(t) })).scope)).toEqual({ kind: "tenants", customerIds: [NETWORK_OWNER] });
  });

  it("tenantBlock: deleted before restricted before expired", () => {
    const base = { restricted: false, expirationDate: null, deleted: false, networkOwner: false };
    expect(tenantBlock(undefined, 0)).toBeUndefined();
    expect(tenantBlock(base, 0)).toBeUndefined();
    expect(tenantBlock({ ...base, expirationDate: 5 }, 4)).toBeUndefined();
    expect(tenantBlock({ ...base, expirationDate: 5 }, 5)).toBe("expired");
    expect(tenantBlock({ ...base, restricted: true, expirationDate: 5 }, 9)).toBe("restricted");
    expect(tenantBlock({ ...base, deleted: true, restricted: true }, 0)).toBe("deleted");
  });
});
