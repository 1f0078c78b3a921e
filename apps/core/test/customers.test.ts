// Customers: document 2 "Customer" and "Customers".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { readErrorDetail } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { CustomerService, LicenseTier } from "@signage/contracts/signage/core/v1/customer_pb";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { ADMIN, startCore, type CoreHarness } from "./support.js";

let core: CoreHarness;
let admin: Client<typeof CustomerService>;
beforeAll(async () => {
  core = await startCore();
  admin = core.as(CustomerService, await core.login(ADMIN.email, ADMIN.password));
});
afterAll(() => core.close());

async function failure(p: Promise<unknown>) {
  const err = await p.then(() => undefined, (e) => ConnectError.from(e));
  if (!err) throw new Error("expected a failure");
  return { code: err.code, key: readErrorDetail(err)?.key };
}

/** A network owner customer with an OWNER user, logged in. */
async function networkOwner(name: string) {
  const c = await admin.createCustomer({ customer: { name, createAsSubreseller: true } });
  const id = c.customer!.id;
  const users = core.as(UserService, await core.login(ADMIN.email, ADMIN.password));
  const email = `owner@${name.toLowerCase()}.test`;
  await users.createUser({ customerId: id, user: { email, name: "Owner", role: Role.OWNER, password: "owner-pass-1" } });
  const token = await core.login(email, "owner-pass-1");
  return { id, token, customers: core.as(CustomerService, token) };
}

describe("customers", () => {
  it("create: 'licenseTier default ENTERPRISE on create'; auto-creates root deviceGroup and the Templates content folder; publishes customer.created", async () => {
    const { customer } = await admin.createCustomer({ customer: { name: "Acme" } });
    expect(customer?.licenseTier).toBe(LicenseTier.ENTERPRISE);
    const id = Number(customer!.id);
    const deviceRoot = await core.knex("device_group").where({ customer_id: id, parent_id: null });
    expect(deviceRoot).toHaveLength(1);
    expect(deviceRoot[0].name).toBeNull();
    const templates = await core.knex("content_group").where({ customer_id: id, name: "Templates" }).first();
    expect(templates.is_template_group).toBe(true);
    const event = await core.eventOf("customer.created", id);
    expect(event.data).toMatchObject({ id, name: "Acme", ownerSubresellerId: null });
  });

  it("'name: required, globally unique'", async () => {
    await admin.createCustomer({ customer: { name: "Unique Co" } });
    expect(await failure(admin.createCustomer({ customer: { name: "Unique Co" } }))).toEqual({ code: Code.AlreadyExists, key: "customer.error.nameTaken" });
    expect((await failure(admin.createCustomer({ customer: {} }))).key).toBe("customer.error.nameRequired");
  });

  it("'A network owner creating a customer gets ownerSubresellerId set to its own id ... must state licenseTier as STARTER or BUSINESS'", async () => {
    const no = await networkOwner("NetA");
    expect((await failure(no.customers.createCustomer({ customer: { name: "Member Enterprise", licenseTier: LicenseTier.ENTERPRISE } }))).key).toBe("customer.error.licenseTierNotAllowed");
    expect((await failure(no.customers.createCustomer({ customer: { name: "Member No Tier" } }))).key).toBe("customer.error.licenseTierRequired");
    // "cannot set freeLicenses or browserSessionLicenses"
    expect((await failure(no.customers.createCustomer({ customer: { name: "Member Free", licenseTier: LicenseTier.STARTER, freeLicenses: 5n } }))).key).toBe("customer.error.adminOnlyField");
    const { customer } = await no.customers.createCustomer({ customer: { name: "Member One", licenseTier: LicenseTier.STARTER } });
    expect(customer?.ownerSubresellerId).toBe(no.id);
    expect(customer?.ownerSubresellerName).toBe("NetA");
  });

  it("'A network owner ... cannot create or convert Enterprise customers': not into Enterprise, and not an Enterprise member (an ADMIN made it) into another tier; echoing its tier is no conversion", async () => {
    const no = await networkOwner("NetTier");
    const member = (await no.customers.createCustomer({ customer: { name: "NetTier Member", licenseTier: LicenseTier.STARTER } })).customer!;
    expect((await failure(no.customers.updateCustomer({ id: member.id, customer: { licenseTier: LicenseTier.ENTERPRISE } }))).key).toBe("customer.error.licenseTierNotAllowed");
    expect((await no.customers.updateCustomer({ id: member.id, customer: { licenseTier: LicenseTier.BUSINESS } })).customer?.licenseTier).toBe(LicenseTier.BUSINESS);

    const enterprise = (await admin.createCustomer({ customer: { name: "NetTier Enterprise", licenseTier: LicenseTier.ENTERPRISE, ownerSubresellerId: no.id } })).customer!;
    for (const tier of [LicenseTier.STARTER, LicenseTier.BUSINESS]) {
      expect(await failure(no.customers.updateCustomer({ id: enterprise.id, customer: { licenseTier: tier } })), LicenseTier[tier]).toEqual({ code: Code.InvalidArgument, key: "customer.error.licenseTierNotAllowed" });
    }
    expect((await no.customers.updateCustomer({ id: enterprise.id, customer: { licenseTier: LicenseTier.ENTERPRISE, comment: "kept" } })).customer).toMatchObject({ licenseTier: LicenseTier.ENTERPRISE, comment: "kept" });
  });

  it("scoping: 'Network owner | all member tenants | that tenant, if owned'; other roles see their own tenant only", async () => {
    const no = await networkOwner("NetB");
    const member = (await no.customers.createCustomer({ customer: { name: "NetB Member", licenseTier: LicenseTier.BUSINESS } })).customer!;
    const outsider = (await admin.createCustomer({ customer: { name: "Outsider" } })).customer!;
    const page = await no.customers.listCustomers({ query: { size: 50 } });
    const ids = page.content.map((c) => c.id);
    expect(ids).toContain(member.id);
    expect(ids).toContain(no.id);
    expect(ids).not.toContain(outsider.id);
    expect((await failure(no.customers.listCustomers({ customerId: outsider.id }))).code).toBe(Code.PermissionDenied);
    expect((await failure(no.customers.updateCustomer({ id: outsider.id, customer: { comment: "x" } }))).code).toBe(Code.NotFound);
  });

  it("'Fields that only ADMIN may set ... are refused (400) for anyone else'", async () => {
    const no = await networkOwner("NetC");
    expect(await failure(no.customers.updateCustomer({ id: no.id, customer: { storageSize: { kind: { case: "numberValue", value: 10 } } } }))).toEqual({ code: Code.InvalidArgument, key: "customer.error.adminOnlyField" });
    const ok = await admin.updateCustomer({ id: no.id, customer: { storageSize: { kind: { case: "numberValue", value: 1000 } }, comment: "set by admin" } });
    expect(ok.customer?.storageSize).toBe(1000n);
    expect(ok.customer?.comment).toBe("set by admin");
  });

  it("'Demote network owner; refused while it owns customers', then move and demote", async () => {
    const no = await networkOwner("NetD");
    const member = (await no.customers.createCustomer({ customer: { name: "NetD Member", licenseTier: LicenseTier.STARTER } })).customer!;
    expect(await failure(admin.removeSubresellerPrivilege({ id: no.id }))).toEqual({ code: Code.FailedPrecondition, key: "customer.error.subresellerHasCustomers" });
    // "without the parameter it removes the customer from its owner"
    const moved = await admin.moveToSubreseller({ id: member.id });
    expect(moved.customer?.ownerSubresellerId).toBeUndefined();
    const demoted = await admin.removeSubresellerPrivilege({ id: no.id });
    expect(demoted.customer?.subreseller).toBeUndefined();
  });

  it("'Move under network owner': a network owner cannot be owned, by another or by itself: 409 customer.error.subresellerCannotBeOwned (not 'is not a network owner' about itself)", async () => {
    const [first, second] = [await networkOwner("NetSelf1"), await networkOwner("NetSelf2")];
    for (const target of [second.id, first.id]) {
      expect(await failure(admin.moveToSubreseller({ id: first.id, subresellerId: target })), `under ${target}`).toEqual({ code: Code.FailedPrecondition, key: "customer.error.subresellerCannotBeOwned" });
    }
  });

  it("delete cascades: users of the customer are gone and customer.deleted is published", async () => {
    const { customer } = await admin.createCustomer({ customer: { name: "Doomed" } });
    const users = core.as(UserService, await core.login(ADMIN.email, ADMIN.password));
    await users.createUser({ customerId: customer!.id, user: { email: "x@doomed.test", role: Role.VIEWER, password: "password-1" } });
    await admin.deleteCustomer({ id: customer!.id });
    expect(await core.knex("app_user").where({ email: "x@doomed.test" })).toHaveLength(0);
    expect(await core.knex("device_group").where({ customer_id: Number(customer!.id) })).toHaveLength(0);
    await core.eventOf("customer.deleted", Number(customer!.id));
    expect((await failure(admin.updateCustomer({ id: customer!.id, customer: {} }))).code).toBe(Code.NotFound);
  });

  it("team access settings default to true and update individually", async () => {
    const { customer } = await admin.createCustomer({ customer: { name: "Teams Co" } });
    expect(customer?.teamAccessSettings?.accessResourcesWithoutTeam).toBe(true);
    const res = await admin.updateTeamAccessSettings({ customerId: customer!.id, settings: { accessResourcesWithoutTeam: false } });
    expect(res.settings).toMatchObject({ accessResourcesWithoutTeam: false, userFullAccessIfNotInTeam: true });
  });

  it("'setDefaultContents?defaultEmergencyContentId=<id or null>': null removes it", async () => {
    const { customer } = await admin.createCustomer({ customer: { name: "Emergency Co" } });
    const set = await admin.setDefaultContents({ customerId: customer!.id, defaultEmergencyContentId: "content-1" });
    expect(set.customer?.defaultEmergencyContentId).toBe("content-1");
    const cleared = await admin.setDefaultContents({ customerId: customer!.id, defaultEmergencyContentId: "null" });
    expect(cleared.customer?.defaultEmergencyContentId).toBeUndefined();
  });
});
