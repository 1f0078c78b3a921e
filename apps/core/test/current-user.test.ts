// A token says who its user was when it was issued; core checks it against the
// user as they are now. Document 2: creating users is "by OWNER or ADMIN",
// "Role per operation as listed", and 2FA makes "sensitive operations ...
// require ... a TOTP code in header x-totp": a deleted user, a demoted OWNER or
// a user who turned 2FA on must not keep the old powers until the token expires.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { currentTotpCode, readErrorDetail } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { ADMIN, startCore, type CoreHarness } from "./support.js";

let core: CoreHarness;
let adminUsers: Client<typeof UserService>;
let customerId: bigint;

beforeAll(async () => {
  core = await startCore();
  const token = await core.login(ADMIN.email, ADMIN.password);
  adminUsers = core.as(UserService, token);
  customerId = (await core.as(CustomerService, token).createCustomer({ customer: { name: "Current users" } })).customer!.id;
});
afterAll(() => core.close());

async function failure(p: Promise<unknown>) {
  const err = await p.then(() => undefined, (e) => ConnectError.from(e));
  if (!err) throw new Error("expected a failure");
  return { code: err.code, key: readErrorDetail(err)?.key };
}

async function ownerToken(email: string): Promise<string> {
  await adminUsers.createUser({ customerId, user: { email, role: Role.OWNER, password: "owner-pass-1" } });
  return core.login(email, "owner-pass-1");
}

const newUser = (email: string) => ({ customerId, user: { email, role: Role.VIEWER, password: "password-1" } });

describe("tokens checked against the user as they are now", () => {
  it("a deleted user's token is refused at once (401 auth.error.userDeleted)", async () => {
    const token = await ownerToken("gone@c.test");
    await adminUsers.deleteUser({ email: "gone@c.test" });
    expect(await failure(core.as(UserService, token).createUser(newUser("by-gone@c.test")))).toEqual({ code: Code.Unauthenticated, key: "auth.error.userDeleted" });
    expect(await failure(core.as(UserService, token).getMe({}))).toEqual({ code: Code.Unauthenticated, key: "auth.error.userDeleted" });
  });

  it("a demoted OWNER's old token is refused (401 auth.error.tokenOutdated); a fresh token carries the new role", async () => {
    const token = await ownerToken("demoted@c.test");
    await adminUsers.updateUser({ email: "demoted@c.test", user: { role: Role.VIEWER } });
    expect(await failure(core.as(UserService, token).createUser(newUser("by-demoted@c.test")))).toEqual({ code: Code.Unauthenticated, key: "auth.error.tokenOutdated" });
    const fresh = core.as(UserService, await core.login("demoted@c.test", "owner-pass-1"));
    expect((await fresh.getMe({})).user?.role).toBe(Role.VIEWER);
    expect((await failure(fresh.createUser(newUser("by-demoted@c.test")))).key).toBe("auth.error.forbidden");
  });

  it("turning 2FA on guards sensitive calls made with a token issued before (403 auth.error.totpRequired without x-totp)", async () => {
    const token = await ownerToken("late-tfa@c.test");
    const me = core.as(UserService, token);
    const setup = await me.setTwoFactor({ enable: true });
    // Codes are one-time (RFC 6238 5.2): confirm with the previous time step's code, then use the current one.
    await me.setTwoFactor({ enable: true, totp: currentTotpCode(setup.secret!, Date.now() - 30_000) });
    expect((await failure(me.createUser(newUser("by-late-tfa@c.test")))).key).toBe("auth.error.totpRequired");
    expect((await failure(me.setTwoFactor({ enable: false }))).key).toBe("auth.error.totpRequired");
    await core.as(UserService, token, { "x-totp": currentTotpCode(setup.secret!) }).createUser(newUser("by-late-tfa@c.test"));
  });

  it("'expiration triggers device lockout' only: users of an expired customer still log in and work (restricted: 'all access blocked')", async () => {
    const admin = core.as(CustomerService, await core.login(ADMIN.email, ADMIN.password));
    const expired = (await admin.createCustomer({ customer: { name: "Expired" } })).customer!.id;
    await adminUsers.createUser({ customerId: expired, user: { email: "still@e.test", role: Role.OWNER, password: "owner-pass-1" } });
    await admin.updateCustomer({ id: expired, customer: { expirationDate: BigInt(Date.now() - 1000) } });
    const token = await core.login("still@e.test", "owner-pass-1");
    expect((await core.as(UserService, token).getMe({})).user?.email).toBe("still@e.test");
    await admin.updateCustomer({ id: expired, customer: { restricted: true } });
    expect((await failure(core.login("still@e.test", "owner-pass-1"))).key).toBe("oauth.error.access_denied");
  });
});
