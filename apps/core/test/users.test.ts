// Users: document 2 "User", "Authentication", Limits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { currentTotpCode, readErrorDetail } from "@signage/auth";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { ADMIN, startCore, type CoreHarness } from "./support.js";

let core: CoreHarness;
let adminUsers: Client<typeof UserService>;
let customerA: bigint;
let customerB: bigint;

beforeAll(async () => {
  core = await startCore();
  const token = await core.login(ADMIN.email, ADMIN.password);
  adminUsers = core.as(UserService, token);
  const customers = core.as(CustomerService, token);
  customerA = (await customers.createCustomer({ customer: { name: "Tenant A" } })).customer!.id;
  customerB = (await customers.createCustomer({ customer: { name: "Tenant B" } })).customer!.id;
});
afterAll(() => core.close());

async function failure(p: Promise<unknown>) {
  const err = await p.then(() => undefined, (e) => ConnectError.from(e));
  if (!err) throw new Error("expected a failure");
  return { code: err.code, key: readErrorDetail(err)?.key };
}

async function owner(customerId: bigint, email: string) {
  await adminUsers.createUser({ customerId, user: { email, role: Role.OWNER, password: "owner-pass-1" } });
  return core.as(UserService, await core.login(email, "owner-pass-1"));
}

describe("users", () => {
  it("'Password: at least 8 characters'", async () => {
    expect(await failure(adminUsers.createUser({ customerId: customerA, user: { email: "short@a.test", role: Role.VIEWER, password: "1234567" } }))).toEqual({
      code: Code.InvalidArgument,
      key: "user.error.passwordTooShort",
    });
  });

  it("'email: primary key, unique, valid format'", async () => {
    expect((await failure(adminUsers.createUser({ customerId: customerA, user: { email: "not-an-email", role: Role.VIEWER, password: "password-1" } }))).key).toBe("user.error.invalidEmail");
    await adminUsers.createUser({ customerId: customerA, user: { email: "dup@a.test", role: Role.VIEWER, password: "password-1" } });
    expect(await failure(adminUsers.createUser({ customerId: customerA, user: { email: "DUP@a.test", role: Role.VIEWER, password: "password-1" } }))).toEqual({ code: Code.AlreadyExists, key: "user.error.emailTaken" });
  });

  it("an OWNER cannot grant a role above its own, nor trustedAdmin ('ADMIN only')", async () => {
    const o = await owner(customerA, "owner1@a.test");
    expect((await failure(o.createUser({ customerId: customerA, user: { email: "boss@a.test", role: Role.ADMIN, password: "password-1" } }))).code).toBe(Code.PermissionDenied);
    expect((await failure(o.createUser({ customerId: customerA, user: { email: "ta@a.test", role: Role.EDITOR, password: "password-1", trustedAdmin: true } }))).key).toBe("user.error.adminOnlyField");
    const created = await o.createUser({ customerId: customerA, user: { email: "editor@a.test", role: Role.EDITOR, password: "password-1" } });
    expect(created.user?.customer?.id).toBe(customerA);
  });

  it("Create user: 'customerId required for non-ADMIN'; ADMIN may omit it", async () => {
    const o = await owner(customerA, "owner3@a.test");
    const refused = await failure(o.createUser({ user: { email: "nocustomer@a.test", role: Role.VIEWER, password: "password-1" } }));
    expect(refused).toMatchObject({ code: Code.InvalidArgument, key: "request.error.missingParameter" });
    expect((await o.listSimpleUsers({})).users.map((u) => u.email)).not.toContain("nocustomer@a.test");
    const byAdmin = await adminUsers.createUser({ user: { email: "admin-own@platform.test", role: Role.VIEWER, password: "password-1" } });
    expect(byAdmin.user?.email).toBe("admin-own@platform.test");
  });

  it("'Other roles | own tenant | own tenant': a non-admin's customerId of another tenant never widens its scope", async () => {
    const o = await owner(customerA, "owner2@a.test");
    await adminUsers.createUser({ customerId: customerB, user: { email: "someone@b.test", role: Role.VIEWER, password: "password-1" } });
    const list = await o.listSimpleUsers({ customerId: customerB });
    expect(list.users.map((u) => u.email)).not.toContain("someone@b.test");
    expect(list.users.map((u) => u.email)).toContain("owner2@a.test");
    // Creating "in" B lands in A: the caller's own tenant.
    const created = await o.createUser({ customerId: customerB, user: { email: "placed@a.test", role: Role.VIEWER, password: "password-1" } });
    expect(created.user?.customer?.id).toBe(customerA);
    expect((await failure(o.deleteUser({ email: "someone@b.test" }))).code).toBe(Code.NotFound);
  });

  it("GetMe returns the caller with its customer; password change needs the old password", async () => {
    await adminUsers.createUser({ customerId: customerA, user: { email: "self@a.test", role: Role.VIEWER, password: "password-1", name: "Self" } });
    const me = core.as(UserService, await core.login("self@a.test", "password-1"));
    const { user } = await me.getMe({});
    expect(user).toMatchObject({ email: "self@a.test", name: "Self", role: Role.VIEWER, use2fa: false });
    expect(user?.customer?.name).toBe("Tenant A");
    expect((await failure(me.changePassword({ oldPassword: "wrong-one", newPassword: "password-2" }))).key).toBe("user.error.wrongPassword");
    expect((await failure(me.changePassword({ oldPassword: "password-1", newPassword: "short" }))).key).toBe("user.error.passwordTooShort");
    await me.changePassword({ oldPassword: "password-1", newPassword: "password-2" });
    await expect(core.login("self@a.test", "password-2")).resolves.toBeTruthy();
  });

  it("2FA: enable with a TOTP; then 'Sensitive operations ... may require ... a TOTP code in header x-totp'", async () => {
    await adminUsers.createUser({ customerId: customerA, user: { email: "tfa@a.test", role: Role.OWNER, password: "password-1" } });
    const token = await core.login("tfa@a.test", "password-1");
    const me = core.as(UserService, token);
    const setup = await me.setTwoFactor({ enable: true });
    expect(setup.secret).toBeTruthy();
    expect(setup.otpauthUrl).toContain("otpauth://totp/");
    expect((await failure(me.setTwoFactor({ enable: true, totp: "000000" }))).key).toBe("auth.error.totpInvalid");
    expect((await me.setTwoFactor({ enable: true, totp: currentTotpCode(setup.secret!, Date.now() - 30_000) })).use2fa).toBe(true);

    // Logging in now needs the code, and the new token says 2FA is on.
    expect((await failure(core.login("tfa@a.test", "password-1"))).key).toBe("auth.error.totpRequired");
    const token2 = await core.login("tfa@a.test", "password-1", currentTotpCode(setup.secret!));
    // Each code is one-time (RFC 6238 5.2): confirmation, login and x-totp use three successive time steps.
    const without = core.as(UserService, token2);
    expect((await failure(without.createUser({ user: { email: "x@a.test", role: Role.VIEWER, password: "password-1" } }))).key).toBe("auth.error.totpRequired");
    const withCode = core.as(UserService, token2, { "x-totp": currentTotpCode(setup.secret!, Date.now() + 30_000) });
    await withCode.createUser({ customerId: customerA, user: { email: "x@a.test", role: Role.VIEWER, password: "password-1" } });
  });

  it("2FA turned off by an operator, then set up again at once: the new secret's current code confirms it (the old secret's last step does not make it a replay)", async () => {
    await adminUsers.createUser({ customerId: customerA, user: { email: "re2fa@a.test", role: Role.VIEWER, password: "password-1" } });
    const me = core.as(UserService, await core.login("re2fa@a.test", "password-1"));
    const first = await me.setTwoFactor({ enable: true });
    expect((await me.setTwoFactor({ enable: true, totp: currentTotpCode(first.secret!) })).use2fa).toBe(true);
    await adminUsers.updateUser({ email: "re2fa@a.test", user: { use2fa: false } });
    const again = core.as(UserService, await core.login("re2fa@a.test", "password-1"));
    const second = await again.setTwoFactor({ enable: true });
    expect((await again.setTwoFactor({ enable: true, totp: currentTotpCode(second.secret!) })).use2fa).toBe(true);
  });

  it("profile picture: PNG stored and served; non-images refused as unsupported media", async () => {
    await adminUsers.createUser({ customerId: customerA, user: { email: "pic@a.test", role: Role.VIEWER, password: "password-1" } });
    const me = core.as(UserService, await core.login("pic@a.test", "password-1"));
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const set = await me.setProfilePicture({ data: png, contentType: "image/png" });
    expect(set.user?.hasProfilePicture).toBe(true);
    expect(set.user?.profilePictureApiPath).toContain("/api/v2/user/profilePicture");
    const got = await me.getProfilePicture({ email: "" });
    expect(got.contentType).toBe("image/png");
    expect(Buffer.from(got.data).equals(Buffer.from(png))).toBe(true);
    expect((await failure(me.setProfilePicture({ data: new TextEncoder().encode("hello"), contentType: "image/png" }))).key).toBe("media.error.unsupportedMediaType");
    await me.deleteProfilePicture({});
    expect((await me.getMe({})).user?.hasProfilePicture).toBe(false);
  });

  it("delete own account: the user is gone and cannot log in", async () => {
    await adminUsers.createUser({ customerId: customerA, user: { email: "leaver@a.test", role: Role.VIEWER, password: "password-1" } });
    const me = core.as(UserService, await core.login("leaver@a.test", "password-1"));
    await me.deleteMyAccount({});
    expect((await failure(core.login("leaver@a.test", "password-1"))).key).toBe("oauth.error.invalid_grant");
  });

  it("list users: Page over the caller's scope; 'select: * = all primitive fields (not computed or relations) ... relation(a,b) = nested'", async () => {
    const page = await adminUsers.listUsers({ customerId: customerA, query: { size: 2, page: 0, sort: ["email,asc"] } });
    expect(page.content).toHaveLength(2);
    expect(page.page?.totalElements).toBeGreaterThan(2n);
    expect(page.content[0].email! < page.content[1].email!).toBe(true);
    expect(page.content[0].customer).toBeUndefined();
    const nested = await adminUsers.listUsers({ customerId: customerA, query: { select: "email,customer(id,name)", size: 100 } });
    expect(nested.content.every((u) => u.customer?.id === customerA && u.customer?.name === "Tenant A")).toBe(true);
    expect(nested.content[0].role).toBeUndefined();
  });

  it("list users: 'search' filters, and a bad expression is a 400 naming the problem", async () => {
    const hits = await adminUsers.listUsers({ customerId: customerA, query: { search: "email:dup@,role=VIEWER" } });
    expect(hits.content.map((u) => u.email)).toEqual(["dup@a.test"]);
    const bad = await failure(adminUsers.listUsers({ query: { search: "nmae:x" } }));
    expect(bad.code).toBe(Code.InvalidArgument);
    expect(bad.key).toMatch(/unknownField/);
  });
  it("GetMe answers each caller with its own user when many call at once (their reads share one statement)", async () => {
    const emails = Array.from({ length: 12 }, (_, i) => `concurrent-${i}@example.test`);
    const callers = await Promise.all(emails.map((email) => owner(customerA, email)));
    const seen = await Promise.all(callers.map(async (me) => (await me.getMe({})).user?.email));
    expect(seen).toEqual(emails);
  });
});
