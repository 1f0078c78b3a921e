// Document 2, Customer: "force2FA | boolean | mandatory 2FA for all users"; User: "use2FA,
// forceToSet2FA | boolean". A user who must set 2FA up (the `f2fa` claim, or what the
// CurrentUserCheck says where the users live) only reaches the methods marked
// `allowed_before_2fa_setup`; everything else is PermissionDenied
// `user.error.twoFactorSetupRequired`. API clients and device users are not held back.
import { describe, expect, it } from "vitest";
import { Code, createClient, createRouterTransport, type Client } from "@connectrpc/connect";
import { SignJWT } from "jose";
import { allFiles } from "@signage/contracts";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { createAuthInterceptor, methodPolicy, requireAuth, type AuthInterceptorOptions, type CurrentUserCheck } from "../src/index.js";
import { bearer, directory, expectError, keys, OTHER_TENANT, Role, token, verifier } from "./support.js";

const SETUP_REQUIRED = "user.error.twoFactorSetupRequired";

/** UserService behind the auth interceptor; every handler records its name and answers empty. */
function users(options: Partial<AuthInterceptorOptions> = {}): { client: Client<typeof UserService>; handled: string[] } {
  const handled: string[] = [];
  const reached = (name: string) => (_req: unknown, ctx: Parameters<typeof requireAuth>[0]) => {
    requireAuth(ctx);
    handled.push(name);
    return {};
  };
  const transport = createRouterTransport(
    ({ service }) =>
      service(UserService, {
        listUsers: reached("listUsers"),
        getMe: reached("getMe"),
        setTwoFactor: reached("setTwoFactor"),
        changePassword: reached("changePassword"),
        updateUser: reached("updateUser"),
        deleteProfilePicture: reached("deleteProfilePicture"),
        deleteMyAccount: reached("deleteMyAccount"),
        deleteUser: reached("deleteUser"),
      }),
    { router: { interceptors: [createAuthInterceptor({ verifier, directory, ...options })] } },
  );
  return { client: createClient(UserService, transport), handled };
}

/** A token as issued before the `f2fa` claim existed (same key, same other claims). */
async function tokenWithoutSetupClaim(role: string): Promise<string> {
  return new SignJWT({ uid: "42", cid: OTHER_TENANT, role, no: false, tfa: false, kind: "user" })
    .setProtectedHeader({ alg: keys.alg, typ: "at+jwt" })
    .setSubject("old@example.com")
    .setIssuer("signage")
    .setIssuedAt()
    .setExpirationTime("15m")
    .setJti("old-token")
    .sign(keys.privateKey);
}

describe("mandatory 2FA: a user who must set it up first", () => {
  it("the allowed methods are exactly the ones marked in the proto: read itself, set up / confirm 2FA, own password, leave (own account delete), token grant and revoke", () => {
    const marked = allFiles
      .flatMap((file) => file.services)
      .flatMap((service) => service.methods)
      .filter((method) => methodPolicy(method).allowedBefore2faSetup)
      .map((method) => `${method.parent.name}.${method.name}`)
      .sort();
    expect(marked).toEqual(["AuthService.IssueToken", "AuthService.RevokeToken", "UserService.ChangePassword", "UserService.DeleteMyAccount", "UserService.GetMe", "UserService.SetTwoFactor"]);
    expect(methodPolicy(AuthService.method.createApiClient).allowedBefore2faSetup).toBe(false);
  });

  it("is refused everything else with 403 user.error.twoFactorSetupRequired, before the handler runs", async () => {
    const { client, handled } = users();
    const forced = bearer(await token({ role: Role.OWNER, customerId: OTHER_TENANT, twoFactorSetupRequired: true }));
    const err = await expectError(client.listUsers({}, { headers: forced }), Code.PermissionDenied, SETUP_REQUIRED);
    expect(err.rawMessage).toMatch(/2FA must be set up first/);
    await expectError(client.updateUser({ email: "user@example.com", user: { name: "x" } }, { headers: forced }), Code.PermissionDenied, SETUP_REQUIRED);
    await expectError(client.deleteProfilePicture({}, { headers: forced }), Code.PermissionDenied, SETUP_REQUIRED);
    expect(handled).toEqual([]);
  });

  it("still reads itself, sets up and confirms 2FA, changes its password and may leave", async () => {
    const { client, handled } = users();
    const forced = bearer(await token({ role: Role.VIEWER, customerId: OTHER_TENANT, twoFactorSetupRequired: true }));
    await client.getMe({}, { headers: forced });
    await client.setTwoFactor({ enable: true }, { headers: forced });
    await client.setTwoFactor({ enable: true, totp: "123456" }, { headers: forced });
    await client.changePassword({ oldPassword: "a", newPassword: "b" }, { headers: forced });
    await client.deleteMyAccount({}, { headers: forced });
    expect(handled).toEqual(["getMe", "setTwoFactor", "setTwoFactor", "changePassword", "deleteMyAccount"]);
  });

  it("the role check comes first: a method above the role is auth.error.forbidden, as for anyone", async () => {
    const { client, handled } = users();
    // A VIEWER is held to set 2FA up (a DEVICE_USER would not be: it is exempt), and DeleteUser
    // needs OWNER and is not allowed before set-up: both checks refuse it, the role check answers.
    expect(methodPolicy(UserService.method.deleteUser)).toMatchObject({ minRole: Role.OWNER, allowedBefore2faSetup: false });
    const forced = bearer(await token({ role: Role.VIEWER, customerId: OTHER_TENANT, twoFactorSetupRequired: true }));
    const err = await expectError(client.deleteUser({ email: "user@example.com" }, { headers: forced }), Code.PermissionDenied, "auth.error.forbidden");
    expect(err.rawMessage).toMatch(/role too low/);
    expect(handled).toEqual([]);
  });

  it("API clients and device users are not held back", async () => {
    const { client, handled } = users();
    const apiClient = bearer(await token({ role: Role.OWNER, customerId: OTHER_TENANT, kind: "client", twoFactorSetupRequired: true }));
    await client.listUsers({}, { headers: apiClient });
    const device = bearer(await token({ role: Role.DEVICE_USER, customerId: OTHER_TENANT, twoFactorSetupRequired: true }));
    await client.deleteProfilePicture({}, { headers: device });
    expect(handled).toEqual(["listUsers", "deleteProfilePicture"]);
  });

  it("a token without the claim (issued before it existed) still verifies and counts as not forced", async () => {
    const old = await tokenWithoutSetupClaim("OWNER");
    expect((await verifier.verify(old)).twoFactorSetupRequired).toBe(false);
    const { client, handled } = users();
    await client.listUsers({}, { headers: bearer(old) });
    expect(handled).toEqual(["listUsers"]);
    const fresh = await verifier.verify(await token({ role: Role.OWNER, customerId: OTHER_TENANT }));
    expect(fresh.twoFactorSetupRequired).toBe(false);
  });

  it("where the users live, the current user's value wins over the token's both ways", async () => {
    let now = { twoFactor: false, twoFactorSetupRequired: false };
    const currentUser: CurrentUserCheck = { check: async () => now };
    const { client, handled } = users({ currentUser });
    const forcedToken = bearer(await token({ role: Role.OWNER, customerId: OTHER_TENANT, twoFactorSetupRequired: true }));
    const freeToken = bearer(await token({ role: Role.OWNER, customerId: OTHER_TENANT }));
    // Set up since the token was issued: allowed at once.
    await client.listUsers({}, { headers: forcedToken });
    // Imposed since (customer turned force2FA on): refused at once.
    now = { twoFactor: false, twoFactorSetupRequired: true };
    await expectError(client.listUsers({}, { headers: freeToken }), Code.PermissionDenied, SETUP_REQUIRED);
    await client.getMe({}, { headers: freeToken });
    expect(handled).toEqual(["listUsers", "getMe"]);
  });

  it("PUBLIC methods have no caller and are never held back, though not marked allowed", async () => {
    // Not IssueToken: it is marked allowed_before_2fa_setup, so it would pass either way.
    expect(methodPolicy(ProbeService.method.public)).toMatchObject({ minRole: Role.PUBLIC, allowedBefore2faSetup: false });
    const transport = createRouterTransport(({ service }) => service(ProbeService, { public: (req) => ({ text: `public ${req.text}` }) }), {
      router: { interceptors: [createAuthInterceptor({ verifier, directory })] },
    });
    const forced = bearer(await token({ role: Role.OWNER, customerId: OTHER_TENANT, twoFactorSetupRequired: true }));
    expect((await createClient(ProbeService, transport).public({ text: "hi" }, { headers: forced })).text).toBe("public hi");
  });
});
