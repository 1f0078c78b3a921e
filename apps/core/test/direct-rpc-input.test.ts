// What internal callers can send over gRPC/Connect that the REST edge never lets through:
// int64 ids beyond 2^53 or PostgreSQL's bigint, enum numbers the contract does not define,
// dates beyond a date's range, NUL characters. Each is a 400/404 with a key, never a 500, and
// nothing is written.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { readErrorDetail } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { CustomerService, LicenseTier, Vertical } from "@signage/contracts/signage/core/v1/customer_pb";
import { AuthProvider, EditorLevel, UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { ADMIN, startCore, type CoreHarness } from "./support.js";

let core: CoreHarness;
let customers: Client<typeof CustomerService>;
let users: Client<typeof UserService>;
let customerId: bigint;
beforeAll(async () => {
  core = await startCore();
  const token = await core.login(ADMIN.email, ADMIN.password);
  customers = core.as(CustomerService, token);
  users = core.as(UserService, token);
  customerId = (await customers.createCustomer({ customer: { name: "Direct Input" } })).customer!.id;
});
afterAll(() => core.close());

async function failure(p: Promise<unknown>) {
  const err = await p.then(() => undefined, (e) => ConnectError.from(e));
  if (!err) throw new Error("expected a failure");
  return { code: err.code, key: readErrorDetail(err)?.key };
}

const customerCount = async () => Number((await core.knex("customer").count({ n: "*" }))[0].n);

describe("customer ids out of range", () => {
  it.each([2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n, 0n, -5n])("id %s is 404 customer.error.notFound on every id-addressed method", async (id) => {
    const notFound = { code: Code.NotFound, key: "customer.error.notFound" };
    expect(await failure(customers.updateCustomer({ id, customer: { comment: "x" } }))).toEqual(notFound);
    expect(await failure(customers.deleteCustomer({ id }))).toEqual(notFound);
    expect(await failure(customers.promoteAsSubreseller({ id }))).toEqual(notFound);
    expect(await failure(customers.removeSubresellerPrivilege({ id }))).toEqual(notFound);
    expect(await failure(customers.moveToSubreseller({ id }))).toEqual(notFound);
    expect(await failure(customers.moveToSubreseller({ id: customerId, subresellerId: id }))).toEqual(notFound);
  });
});

describe("customer fields a gRPC caller can send", () => {
  it("undefined vertical and licenseTier numbers are 400, not dropped", async () => {
    const before = await customerCount();
    expect(await failure(customers.createCustomer({ customer: { name: "Vertical 999", vertical: 999 as Vertical } }))).toEqual({ code: Code.InvalidArgument, key: "customer.error.invalidValue" });
    expect(await failure(customers.createCustomer({ customer: { name: "Tier 999", licenseTier: 999 as LicenseTier } }))).toEqual({ code: Code.InvalidArgument, key: "customer.error.invalidValue" });
    expect(await failure(customers.updateCustomer({ id: customerId, customer: { vertical: 999 as Vertical } }))).toEqual({ code: Code.InvalidArgument, key: "customer.error.invalidValue" });
    expect(await customerCount()).toBe(before);
  });

  it("an expirationDate beyond a date's range is 400, not a 500; 0 still clears it", async () => {
    const before = await customerCount();
    expect(await failure(customers.createCustomer({ customer: { name: "Far Future", expirationDate: 2n ** 62n } }))).toEqual({ code: Code.InvalidArgument, key: "customer.error.invalidValue" });
    expect(await failure(customers.updateCustomer({ id: customerId, customer: { expirationDate: -(2n ** 62n) } }))).toEqual({ code: Code.InvalidArgument, key: "customer.error.invalidValue" });
    expect(await customerCount()).toBe(before);
    const far = 253402300799000n; // 9999-12-31T23:59:59Z
    expect((await customers.updateCustomer({ id: customerId, customer: { expirationDate: far } })).customer!.expirationDate).toBe(far);
    expect((await customers.updateCustomer({ id: customerId, customer: { expirationDate: 0n } })).customer!.expirationDate).toBeUndefined();
  });

  it("a NUL character in a text field is 400 request.error.invalidText, nothing written", async () => {
    const before = await customerCount();
    expect(await failure(customers.createCustomer({ customer: { name: "a\u0000b" } }))).toEqual({ code: Code.InvalidArgument, key: "request.error.invalidText" });
    expect(await failure(customers.setDefaultContents({ customerId, defaultEmergencyContentId: "\u0000" }))).toEqual({ code: Code.InvalidArgument, key: "request.error.invalidText" });
    expect(await customerCount()).toBe(before);
  });
});

describe("user fields a gRPC caller can send", () => {
  const password = "Passw0rd!Passw0rd";
  it("an undefined role number is 400 user.error.invalidRole, not a 500", async () => {
    expect(await failure(users.createUser({ customerId, user: { email: "role999@direct.test", role: 999 as Role, password } }))).toEqual({ code: Code.InvalidArgument, key: "user.error.invalidRole" });
    expect(await core.knex("app_user").where({ email: "role999@direct.test" }).first()).toBeUndefined();
  });

  it("undefined editorLevel and authProvider numbers are 400 user.error.invalidValue", async () => {
    expect(await failure(users.createUser({ customerId, user: { email: "level@direct.test", role: Role.VIEWER, password, editorLevel: 999 as EditorLevel } }))).toEqual({ code: Code.InvalidArgument, key: "user.error.invalidValue" });
    expect(await failure(users.createUser({ customerId, user: { email: "provider@direct.test", role: Role.VIEWER, password, authProvider: 999 as AuthProvider } }))).toEqual({ code: Code.InvalidArgument, key: "user.error.invalidValue" });
    await users.createUser({ customerId, user: { email: "fine@direct.test", role: Role.VIEWER, password } });
    expect(await failure(users.updateUser({ email: "fine@direct.test", user: { editorLevel: 999 as EditorLevel } }))).toEqual({ code: Code.InvalidArgument, key: "user.error.invalidValue" });
  });

  it("a NUL character in an email lookup is 400, not a 500", async () => {
    expect(await failure(users.updateUser({ email: "\u0000", user: { name: "x" } }))).toMatchObject({ code: Code.InvalidArgument });
    expect(await failure(users.deleteUser({ email: "\u0000" }))).toMatchObject({ code: Code.InvalidArgument });
    expect(await failure(users.getProfilePicture({ email: "\u0000" }))).toMatchObject({ code: Code.InvalidArgument });
  });
});
