import { describe, expect, it } from "vitest";
import { Code } from "@connectrpc/connect";
import {
  createTokenIssuer,
  currentTotpCode,
  generateSigningKeys,
  generateTotpSecret,
  readErrorDetail,
  verifyTotpCode,
  type TotpChecker,
} from "../src/index.js";
import {
  ADMIN_CUSTOMER,
  bearer,
  expectError,
  keys,
  MEMBERS,
  NETWORK_OWNER,
  OTHER_TENANT,
  parseScope,
  probe,
  Role,
  token,
} from "./support.js";

describe("auth interceptor: authentication and roles", () => {
  it("PUBLIC needs no token and gets no caller", async () => {
    const { client, handled } = probe();
    expect((await client.public({ text: "hi" })).text).toBe("hi");
    expect(handled).toEqual(["public"]);
  });

  it("401 without a token, with a malformed header, and with a non-Bearer scheme", async () => {
    const { client, handled } = probe();
    await expectError(client.viewerRead({}), Code.Unauthenticated, "auth.error.unauthorized");
    await expectError(client.viewerRead({}, { headers: { authorization: "Bearer" } }), Code.Unauthenticated, "auth.error.unauthorized");
    const t = await token({ role: Role.ADMIN, customerId: ADMIN_CUSTOMER });
    await expectError(client.viewerRead({}, { headers: { authorization: `Basic ${t}` } }), Code.Unauthenticated, "auth.error.unauthorized");
    expect(handled).toEqual([]);
  });

  it("401 for an expired token", async () => {
    const { client } = probe();
    const stale = createTokenIssuer({ signingKeys: keys, now: () => Date.now() - 3_600_000 });
    const { token: t } = await stale.issueAccessToken({
      subject: "a", userId: "1", customerId: 3, role: Role.ADMIN, networkOwner: false, twoFactor: false, kind: "user",
    });
    const err = await expectError(client.viewerRead({}, { headers: bearer(t) }), Code.Unauthenticated, "auth.error.unauthorized");
    expect(err.rawMessage).toMatch(/expired/);
  });

  it("401 for a tampered token and for a token signed by another key", async () => {
    const { client } = probe();
    const t = await token({ role: Role.VIEWER, customerId: OTHER_TENANT });
    const [h, p, s] = t.split(".");
    const claims = JSON.parse(Buffer.from(p, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, role: "ADMIN" })).toString("base64url");
    await expectError(client.viewerRead({}, { headers: bearer(`${h}.${forged}.${s}`) }), Code.Unauthenticated, "auth.error.unauthorized");

    const foreign = await createTokenIssuer({ signingKeys: generateSigningKeys() }).issueAccessToken({
      subject: "a", userId: "1", customerId: 3, role: Role.ADMIN, networkOwner: false, twoFactor: false, kind: "user",
    });
    await expectError(client.viewerRead({}, { headers: bearer(foreign.token) }), Code.Unauthenticated, "auth.error.unauthorized");
  });

  it("403 below the method's min_role, with the roles in the details", async () => {
    const { client, handled } = probe();
    const editor = await token({ role: Role.EDITOR, customerId: OTHER_TENANT });
    const err = await expectError(client.ownerWrite({}, { headers: bearer(editor) }), Code.PermissionDenied, "auth.error.forbidden");
    expect(readErrorDetail(err)?.details).toEqual({ requiredRole: "OWNER", role: "EDITOR" });
    const deviceUser = await token({ role: Role.DEVICE_USER, customerId: OTHER_TENANT });
    await expectError(client.viewerRead({}, { headers: bearer(deviceUser) }), Code.PermissionDenied, "auth.error.forbidden");
    expect(handled).toEqual([]);
  });

  it("a method without min_role is refused to everyone, ADMIN included, token or not", async () => {
    const { client, handled } = probe();
    await expectError(client.unannotated({}), Code.PermissionDenied, "auth.error.noRole");
    const admin = await token({ role: Role.ADMIN, customerId: ADMIN_CUSTOMER });
    await expectError(client.unannotated({}, { headers: bearer(admin) }), Code.PermissionDenied, "auth.error.noRole");
    expect(handled).toEqual([]);
  });
});

describe("auth interceptor: customer scope in the handler context", () => {
  const scopeOf = async (role: Role, customerId: number, requested?: number, networkOwner = false) => {
    const { client } = probe();
    const t = await token({ role, customerId, networkOwner });
    const req = requested === undefined ? {} : { customerId: BigInt(requested) };
    return parseScope((await client.viewerRead(req, { headers: bearer(t) })).scope);
  };

  it('"| Other roles | own tenant | own tenant |": a customerId of another tenant never widens the scope', async () => {
    expect(await scopeOf(Role.VIEWER, OTHER_TENANT, NETWORK_OWNER)).toEqual({ kind: "tenants", customerIds: [OTHER_TENANT] });
    expect(await scopeOf(Role.TECHNICIAN, OTHER_TENANT, -1)).toEqual({ kind: "tenants", customerIds: [OTHER_TENANT] });
    expect(await scopeOf(Role.EDITOR, OTHER_TENANT)).toEqual({ kind: "tenants", customerIds: [OTHER_TENANT] });
  });

  it('"| ADMIN | all tenants (global) | that tenant |" and "`customerId=-1` explicitly requests cross-tenant scope"', async () => {
    expect(await scopeOf(Role.ADMIN, ADMIN_CUSTOMER)).toEqual({ kind: "global" });
    expect(await scopeOf(Role.ADMIN, ADMIN_CUSTOMER, OTHER_TENANT)).toEqual({ kind: "tenants", customerIds: [OTHER_TENANT] });
    expect(await scopeOf(Role.ADMIN, ADMIN_CUSTOMER, -1)).toEqual({ kind: "global" });
  });

  it('"| Network owner | all member tenants | that tenant, if owned |"', async () => {
    expect(await scopeOf(Role.OWNER, NETWORK_OWNER, undefined, true)).toEqual({
      kind: "tenants",
      customerIds: [NETWORK_OWNER, ...MEMBERS],
    });
    expect(await scopeOf(Role.OWNER, NETWORK_OWNER, MEMBERS[0], true)).toEqual({ kind: "tenants", customerIds: [MEMBERS[0]] });
    expect(await scopeOf(Role.OWNER, NETWORK_OWNER, -1, true)).toEqual({
      kind: "tenants",
      customerIds: [NETWORK_OWNER, ...MEMBERS],
    });
  });

  it('"| Network owner | ... | that tenant, if owned |": a non-member is a 403 that never reaches the handler', async () => {
    const { client, handled } = probe();
    const t = await token({ role: Role.OWNER, customerId: NETWORK_OWNER, networkOwner: true });
    await expectError(
      client.ownerWrite({ customerId: BigInt(OTHER_TENANT) }, { headers: bearer(t) }),
      Code.PermissionDenied,
      "customer.error.notOwned",
    );
    expect(handled).toEqual([]);
  });

  it("methods without customer_selector still get the caller's scope", async () => {
    const { client, handled } = probe();
    const t = await token({ role: Role.DEVICE_USER, customerId: OTHER_TENANT });
    await client.sensitiveChange({}, { headers: bearer(t) });
    expect(handled).toEqual(["sensitiveChange"]);
  });
});

describe("auth interceptor: sensitive methods", () => {
  const secret = generateTotpSecret();
  const totp: TotpChecker = { verify: async (_caller, code) => verifyTotpCode(secret, code) };
  const wrong = (code: string) => String((Number(code) + 500_000) % 1_000_000).padStart(6, "0");

  it("a 2FA caller needs x-totp: missing 403, wrong 403, right ok", async () => {
    const { client, handled } = probe({ totp });
    const t = await token({ role: Role.DEVICE_USER, customerId: OTHER_TENANT, twoFactor: true });
    await expectError(client.sensitiveChange({}, { headers: bearer(t) }), Code.PermissionDenied, "auth.error.totpRequired");
    await expectError(
      client.sensitiveChange({}, { headers: { ...bearer(t), "x-totp": wrong(currentTotpCode(secret)) } }),
      Code.PermissionDenied,
      "auth.error.totpInvalid",
    );
    expect(handled).toEqual([]);
    await client.sensitiveChange({}, { headers: { ...bearer(t), "x-totp": currentTotpCode(secret) } });
    expect(handled).toEqual(["sensitiveChange"]);
  });

  it("a caller without 2FA needs no code; a 2FA caller on a server without a checker fails closed", async () => {
    const { client } = probe();
    await client.sensitiveChange({}, { headers: bearer(await token({ role: Role.VIEWER, customerId: OTHER_TENANT })) });
    const tfa = await token({ role: Role.VIEWER, customerId: OTHER_TENANT, twoFactor: true });
    await expectError(
      client.sensitiveChange({}, { headers: { ...bearer(tfa), "x-totp": "123456" } }),
      Code.Internal,
      "auth.error.totpUnavailable",
    );
  });

  it("CAPTCHA is checked only when a checker is configured", async () => {
    const captcha = { verify: async (response: string) => response === "human" };
    const { client, handled } = probe({ captcha });
    const t = await token({ role: Role.VIEWER, customerId: OTHER_TENANT });
    await expectError(client.sensitiveChange({}, { headers: bearer(t) }), Code.PermissionDenied, "auth.error.captchaRequired");
    await expectError(
      client.sensitiveChange({}, { headers: { ...bearer(t), "g-recaptcha-response": "bot" } }),
      Code.PermissionDenied,
      "auth.error.captchaInvalid",
    );
    await client.sensitiveChange({}, { headers: { ...bearer(t), "g-recaptcha-response": "human" } });
    // Not sensitive: no CAPTCHA asked.
    await client.viewerRead({}, { headers: bearer(t) });
    expect(handled).toEqual(["sensitiveChange", "viewerRead"]);
  });
});
