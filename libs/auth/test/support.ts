import { expect } from "vitest";
import { Code, ConnectError, createClient, createRouterTransport, type Client, type Interceptor } from "@connectrpc/connect";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import {
  createAuthInterceptor,
  createInMemoryTenantDirectory,
  createTokenIssuer,
  createTokenVerifier,
  generateSigningKeys,
  readErrorDetail,
  requireAuth,
  type AccessTokenSubject,
  type AuthInterceptorOptions,
  type Scope,
} from "../src/index.js";

export const ADMIN_CUSTOMER = 1;
export const NETWORK_OWNER = 10;
export const MEMBERS = [11, 12];
export const OTHER_TENANT = 20;

export const keys = generateSigningKeys();
export const issuer = createTokenIssuer({ signingKeys: keys });
export const verifier = createTokenVerifier({ publicKey: keys.publicKey });
export const directory = createInMemoryTenantDirectory([[NETWORK_OWNER, MEMBERS]]);

export function token(subject: Partial<AccessTokenSubject> & Pick<AccessTokenSubject, "role" | "customerId">) {
  return issuer
    .issueAccessToken({
      subject: "user@example.com",
      userId: "42",
      networkOwner: false,
      twoFactor: false,
      kind: "user",
      ...subject,
    })
    .then((t) => t.token);
}

export const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

/** A ProbeService behind the auth interceptor; handlers echo the resolved scope as JSON. */
export function probe(options: Partial<AuthInterceptorOptions> = {}): {
  client: Client<typeof ProbeService>;
  handled: string[];
} {
  const handled: string[] = [];
  const scopeOf = (name: string, values: Parameters<typeof requireAuth>[0]) => {
    handled.push(name);
    return JSON.stringify(requireAuth(values).scope);
  };
  const interceptor: Interceptor = createAuthInterceptor({ verifier, directory, ...options });
  const transport = createRouterTransport(
    ({ service }) =>
      service(ProbeService, {
        public: (req) => (handled.push("public"), { text: req.text }),
        viewerRead: (_req, ctx) => ({ scope: scopeOf("viewerRead", ctx) }),
        ownerWrite: (_req, ctx) => ({ scope: scopeOf("ownerWrite", ctx) }),
        sensitiveChange: (_req, ctx) => (requireAuth(ctx), handled.push("sensitiveChange"), {}),
        unannotated: () => (handled.push("unannotated"), {}),
      }),
    { router: { interceptors: [interceptor] } },
  );
  return { client: createClient(ProbeService, transport), handled };
}

export function parseScope(json: string): Scope {
  return JSON.parse(json) as Scope;
}

export async function expectError(call: Promise<unknown>, code: Code, key: string) {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "call should fail").toBeInstanceOf(ConnectError);
  expect(Code[(err as ConnectError).code]).toBe(Code[code]);
  expect(readErrorDetail(err)?.key).toBe(key);
  return err as ConnectError;
}

export { Role };
