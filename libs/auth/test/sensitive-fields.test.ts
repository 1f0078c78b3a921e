// Field-level sensitivity from `(signage.options.v1.sensitive_field)`, on the real
// UserService.UpdateUser contract: "changing password, 2FA, readOnly, restricted,
// trustedAdmin or a role to OWNER/ADMIN is a sensitive change".
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { Code, createClient, createRouterTransport } from "@connectrpc/connect";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import {
  captchaFromEnv,
  createAuthInterceptor,
  createRecaptchaVerifier,
  currentTotpCode,
  generateTotpSecret,
  methodPolicy,
  verifyTotpCode,
  type CaptchaChecker,
  type TotpChecker,
} from "../src/index.js";
import { bearer, directory, expectError, OTHER_TENANT, Role, token, verifier } from "./support.js";

const secret = generateTotpSecret();
const totp: TotpChecker = { verify: async (_caller, code) => verifyTotpCode(secret, code) };

function users(captcha?: CaptchaChecker) {
  const handled: string[] = [];
  const transport = createRouterTransport(
    ({ service }) => service(UserService, { updateUser: (req) => (handled.push(req.email), {}) }),
    { router: { interceptors: [createAuthInterceptor({ verifier, directory, totp, captcha })] } },
  );
  return { client: createClient(UserService, transport), handled };
}

describe("sensitive_field", () => {
  it("the UpdateUser policy lists exactly the documented fields; the method itself is not sensitive", () => {
    const policy = methodPolicy(UserService.method.updateUser);
    expect(policy.sensitive).toBe(false);
    expect(policy.sensitiveFields.map((r) => r.path.map((f) => f.name).join(".")).sort()).toEqual(
      ["user.password", "user.read_only", "user.restricted", "user.role", "user.trusted_admin", "user.use_2fa"].sort(),
    );
  });

  it("a 2FA caller needs x-totp only when a sensitive field is set; a role needs it only for OWNER/ADMIN", async () => {
    const { client, handled } = users();
    const t = await token({ role: Role.OWNER, customerId: OTHER_TENANT, twoFactor: true });
    await client.updateUser({ email: "a", user: { name: "x", role: Role.EDITOR, comment: "c" } }, { headers: bearer(t) });
    for (const user of [{ password: "password-2" }, { readOnly: false }, { restricted: true }, { trustedAdmin: false }, { use2fa: false }, { role: Role.OWNER }, { role: Role.ADMIN }]) {
      await expectError(client.updateUser({ email: "b", user }, { headers: bearer(t) }), Code.PermissionDenied, "auth.error.totpRequired");
      await client.updateUser({ email: "c", user }, { headers: { ...bearer(t), "x-totp": currentTotpCode(secret) } });
    }
    expect(handled).toEqual(["a", ...Array(7).fill("c")]);
  });

  it("CAPTCHA follows the same rule when configured", async () => {
    const { client } = users({ verify: async (r) => r === "human" });
    const t = await token({ role: Role.OWNER, customerId: OTHER_TENANT });
    await client.updateUser({ email: "a", user: { name: "no captcha needed" } }, { headers: bearer(t) });
    await expectError(client.updateUser({ email: "a", user: { readOnly: true } }, { headers: bearer(t) }), Code.PermissionDenied, "auth.error.captchaRequired");
    await client.updateUser({ email: "a", user: { readOnly: true } }, { headers: { ...bearer(t), "g-recaptcha-response": "human" } });
  });
});

describe("reCAPTCHA-protocol verifier", () => {
  it("posts secret and response form-encoded and trusts `success`; fails closed on errors; off without RECAPTCHA_SECRET", async () => {
    const seen: URLSearchParams[] = [];
    // Stands in for the third-party provider.
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        seen.push(form);
        if (form.get("response") === "boom") return void res.writeHead(500).end();
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ success: form.get("response") === "human" }));
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    try {
      const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
      const checker = createRecaptchaVerifier({ secret: "s3cret", endpoint });
      expect(await checker.verify("human", undefined)).toBe(true);
      expect(await checker.verify("bot", undefined)).toBe(false);
      expect(await checker.verify("boom", undefined)).toBe(false);
      expect(seen[0].get("secret")).toBe("s3cret");
      const fromEnv = captchaFromEnv({ RECAPTCHA_SECRET: "s3cret", RECAPTCHA_VERIFY_URL: endpoint });
      expect(await fromEnv?.verify("human", undefined)).toBe(true);
      expect(await createRecaptchaVerifier({ secret: "s", endpoint: "http://127.0.0.1:1/none" }).verify("human", undefined)).toBe(false);
    } finally {
      server.close();
    }
    expect(captchaFromEnv({})).toBeUndefined();
    expect(captchaFromEnv({ RECAPTCHA_SECRET: " " })).toBeUndefined();
  });
});

describe("totp_code request fields ('POST /api/user/2fa?totp=<code>&enable=<bool>')", () => {
  it("only a field marked totp_code stands in for x-totp; another field named totp does not", () => {
    expect(methodPolicy(UserService.method.setTwoFactor).totpCodeField?.name).toBe("totp");
    // IssueTokenRequest.totp is the login's second factor, not marked.
    expect(AuthService.method.issueToken.input.fields.some((f) => f.name === "totp")).toBe(true);
    expect(methodPolicy(AuthService.method.issueToken).totpCodeField).toBeUndefined();
  });
});
