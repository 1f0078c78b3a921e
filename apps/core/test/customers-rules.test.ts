// Customer rules added on top of customers.test.ts (document 2 "Customer", "States and
// transitions"; ROLES.md), over core's own RPC surface.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { readErrorDetail } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import { CustomerService, LicenseTier } from "@signage/contracts/signage/core/v1/customer_pb";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { ADMIN, startCore, type CoreHarness } from "./support.js";

let core: CoreHarness;
let adminToken: string;
let admin: Client<typeof CustomerService>;
beforeAll(async () => {
  core = await startCore();
  adminToken = await core.login(ADMIN.email, ADMIN.password);
  admin = core.as(CustomerService, adminToken);
});
afterAll(() => core.close());

async function failure(p: Promise<unknown>) {
  const err = await p.then(() => undefined, (e) => ConnectError.from(e));
  if (!err) throw new Error("expected a failure");
  return { code: err.code, key: readErrorDetail(err)?.key };
}

describe("customer rules", () => {
  it("the platform customer (the super admins' own) cannot be restricted, expired, promoted or moved", async () => {
    const me = await core.as(UserService, adminToken).getMe({});
    const platformId = me.user!.customer!.id;
    expect((await failure(admin.updateCustomer({ id: platformId, customer: { restricted: true } }))).key).toBe("customer.error.platformCustomer");
    expect((await failure(admin.updateCustomer({ id: platformId, customer: { expirationDate: BigInt(Date.now()) } }))).key).toBe("customer.error.platformCustomer");
    expect((await failure(admin.promoteAsSubreseller({ id: platformId }))).key).toBe("customer.error.platformCustomer");
    // Still usable.
    expect((await admin.listCustomers({ query: { size: 1 } })).page).toBeDefined();
  });

  it("'Move under network owner (ADMIN) | PUT `/api/customer/{id}/moveToSubreseller`': an update naming another ownerSubresellerId or createAsSubreseller is refused (400), not silently ignored; echoing the read values is no change", async () => {
    const owner = (await admin.createCustomer({ customer: { name: "Update Owner", createAsSubreseller: true, licenseTier: LicenseTier.BUSINESS } })).customer!;
    const member = (await admin.createCustomer({ customer: { name: "Update Member", ownerSubresellerId: owner.id, licenseTier: LicenseTier.BUSINESS } })).customer!;
    const plain = (await admin.createCustomer({ customer: { name: "Update Plain" } })).customer!;
    expect(await failure(admin.updateCustomer({ id: plain.id, customer: { ownerSubresellerId: owner.id } }))).toEqual({ code: Code.InvalidArgument, key: "customer.error.createOnlyField" });
    expect(await failure(admin.updateCustomer({ id: plain.id, customer: { createAsSubreseller: true } }))).toEqual({ code: Code.InvalidArgument, key: "customer.error.createOnlyField" });
    const after = await admin.listCustomers({ query: { search: `id=${plain.id}` } });
    expect(after.content[0].ownerSubresellerId).toBeUndefined();
    const echoed = await admin.updateCustomer({ id: member.id, customer: { name: "Update Member 2", ownerSubresellerId: owner.id } });
    expect(echoed.customer).toMatchObject({ name: "Update Member 2", ownerSubresellerId: owner.id });
    // A whole form with the create-time default createAsSubreseller:false demotes nobody.
    const form = await admin.updateCustomer({ id: owner.id, customer: { comment: "kept", createAsSubreseller: false } });
    expect(form.customer).toMatchObject({ comment: "kept" });
    expect(form.customer?.subreseller).toBeDefined();
  });

  it("'ownerSubresellerId (ADMIN)': a network owner cannot be created under another network owner", async () => {
    const owner = (await admin.createCustomer({ customer: { name: "Rules Owner", createAsSubreseller: true } })).customer!;
    expect((await failure(admin.createCustomer({ customer: { name: "Rules Nested", createAsSubreseller: true, ownerSubresellerId: owner.id } }))).key).toBe("customer.error.subresellerCannotBeOwned");
    const member = await admin.createCustomer({ customer: { name: "Rules Member", ownerSubresellerId: owner.id, licenseTier: LicenseTier.BUSINESS } });
    expect(member.customer?.ownerSubresellerId).toBe(owner.id);
  });

  it("customer.updated carries restricted and expirationDate (every service's replica refuses the customer's callers from them)", async () => {
    const { customer } = await admin.createCustomer({ customer: { name: "Rules Events" } });
    const at = BigInt(Date.now() + 60_000);
    await admin.updateCustomer({ id: customer!.id, customer: { restricted: true, expirationDate: at } });
    const event = await core.eventOf("customer.updated", Number(customer!.id));
    expect(event.data).toMatchObject({ id: Number(customer!.id), restricted: true, expirationDate: Number(at) });
    const directory = await admin.listTenantDirectory({});
    expect(directory.entries.find((e) => e.customerId === customer!.id)).toMatchObject({ restricted: true, expirationDate: at });
  });

  it("a restricted customer's token is refused by core on its next call; its API clients get no token", async () => {
    const { customer } = await admin.createCustomer({ customer: { name: "Rules Restricted" } });
    await core.as(UserService, adminToken).createUser({ customerId: customer!.id, user: { email: "v@rules-restricted.test", role: Role.VIEWER, password: "password-1" } });
    const token = await core.login("v@rules-restricted.test", "password-1");
    const viewer = core.as(UserService, token);
    await viewer.getMe({});
    const client = await core.as(AuthService, adminToken).createApiClient({ customerId: customer!.id, name: "bot", role: "VIEWER" });
    await admin.updateCustomer({ id: customer!.id, customer: { restricted: true } });
    expect(await failure(viewer.getMe({}))).toEqual({ code: Code.PermissionDenied, key: "auth.error.customerRestricted" });
    expect((await failure(core.auth.issueToken({ grantType: "client_credentials", clientId: client.clientId, clientSecret: client.clientSecret }))).key).toBe("oauth.error.access_denied");
  });

  it("deleting a customer removes its API clients and UI profiles with it, in one statement", async () => {
    const { customer } = await admin.createCustomer({ customer: { name: "Rules Cascade" } });
    const id = Number(customer!.id);
    await core.as(AuthService, adminToken).createApiClient({ customerId: customer!.id, name: "bot", role: "VIEWER" });
    await core.knex("ui_profile").insert({ customer_id: id, name: "p", hidden_ui_element_rules: JSON.stringify({}) });
    await admin.deleteCustomer({ id: customer!.id });
    expect(await core.knex("api_client").where({ customer_id: id })).toHaveLength(0);
    expect(await core.knex("ui_profile").where({ customer_id: id })).toHaveLength(0);
  });
});
