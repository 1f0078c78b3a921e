import { afterAll, describe, expect, it } from "vitest";
import knex from "knex";
import { Code } from "@connectrpc/connect";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import {
  applyScope,
  GLOBAL_SCOPE,
  resolveScope,
  scopeIncludes,
  singleTenant,
  tenantScope,
  type Caller,
} from "../src/index.js";
import { ADMIN_CUSTOMER, directory, expectError, MEMBERS, NETWORK_OWNER, OTHER_TENANT } from "./support.js";

const caller = (role: Role, customerId: number, networkOwner = false): Caller => ({
  subject: "u@example.com",
  userId: "1",
  customerId,
  role,
  networkOwner,
  twoFactor: false,
  kind: "user",
  token: "t",
});
const resolve = (c: Caller, requestedCustomerId?: number) => resolveScope({ caller: c, requestedCustomerId, directory });

describe("resolveScope", () => {
  const admin = caller(Role.ADMIN, ADMIN_CUSTOMER);
  const networkOwner = caller(Role.OWNER, NETWORK_OWNER, true);

  it('"| ADMIN | all tenants (global) | that tenant |"', async () => {
    expect(await resolve(admin)).toEqual({ kind: "global" });
    expect(await resolve(admin, OTHER_TENANT)).toEqual({ kind: "tenants", customerIds: [OTHER_TENANT] });
  });

  it('"`customerId=-1` explicitly requests cross-tenant scope where intended." (ADMIN: global)', async () => {
    expect(await resolve(admin, -1)).toEqual({ kind: "global" });
  });

  it("ADMIN with a customerId that is no id at all is a 400", async () => {
    await expectError(resolve(admin, 0), Code.InvalidArgument, "customer.error.customerIdInvalid");
  });

  it('"| Network owner | all member tenants | that tenant, if owned |" (without: own + members)', async () => {
    expect(await resolve(networkOwner)).toEqual({ kind: "tenants", customerIds: [NETWORK_OWNER, ...MEMBERS] });
  });

  it('"| Network owner | all member tenants | that tenant, if owned |" (with a member; with its own)', async () => {
    expect(await resolve(networkOwner, MEMBERS[1])).toEqual({ kind: "tenants", customerIds: [MEMBERS[1]] });
    expect(await resolve(networkOwner, NETWORK_OWNER)).toEqual({ kind: "tenants", customerIds: [NETWORK_OWNER] });
  });

  it('"| Network owner | all member tenants | that tenant, if owned |" (not owned: 403)', async () => {
    await expectError(resolve(networkOwner, OTHER_TENANT), Code.PermissionDenied, "customer.error.notOwned");
  });

  it('"`customerId=-1` explicitly requests cross-tenant scope where intended." (network owner: own + members)', async () => {
    expect(await resolve(networkOwner, -1)).toEqual({ kind: "tenants", customerIds: [NETWORK_OWNER, ...MEMBERS] });
  });

  it('"| Other roles | own tenant | own tenant |" (another tenant or -1 never widens)', async () => {
    for (const role of [Role.DEVICE_USER, Role.VIEWER, Role.EDITOR, Role.APPROVER, Role.TECHNICIAN, Role.OWNER]) {
      const c = caller(role, OTHER_TENANT);
      for (const requested of [undefined, OTHER_TENANT, NETWORK_OWNER, MEMBERS[0], -1]) {
        expect(await resolve(c, requested)).toEqual({ kind: "tenants", customerIds: [OTHER_TENANT] });
      }
    }
  });
});

describe("scope helpers", () => {
  it("scopeIncludes", () => {
    expect(scopeIncludes(GLOBAL_SCOPE, 99)).toBe(true);
    expect(scopeIncludes(tenantScope(1, 2), 2)).toBe(true);
    expect(scopeIncludes(tenantScope(1, 2), 3)).toBe(false);
  });

  it('singleTenant: "Batch operations ... require customerId and cannot run across tenants." / "each create call makes one resource"', async () => {
    expect(singleTenant(tenantScope(5))).toBe(5);
    expect(singleTenant(tenantScope(5, 5))).toBe(5);
    await expectError(
      Promise.resolve().then(() => singleTenant(GLOBAL_SCOPE)),
      Code.InvalidArgument,
      "customer.error.customerIdRequired",
    );
    await expectError(
      Promise.resolve().then(() => singleTenant(tenantScope(5, 6))),
      Code.InvalidArgument,
      "customer.error.customerIdRequired",
    );
  });

  describe("applyScope", () => {
    const db = knex({ client: "pg" });
    afterAll(() => db.destroy());

    it("global adds no clause", () => {
      expect(applyScope(db("device"), GLOBAL_SCOPE).toSQL().sql).toBe('select * from "device"');
    });

    it("tenants add an IN clause on customer_id (or the given column)", () => {
      const q = applyScope(db("device").where("name", "x"), tenantScope(3, 4)).toSQL();
      expect(q.sql).toBe('select * from "device" where "name" = ? and "customer_id" in (?, ?)');
      expect(q.bindings).toEqual(["x", 3, 4]);
      expect(applyScope(db("device as d"), tenantScope(7), "d.owner_id").toSQL().sql).toBe(
        'select * from "device" as "d" where "d"."owner_id" in (?)',
      );
    });
  });
});
