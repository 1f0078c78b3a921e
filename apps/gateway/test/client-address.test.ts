// In-memory level: the client address the gateway reports to the services (x-client-address),
// which core counts password guesses by. GATEWAY_TRUSTED_PROXIES says how many proxies in front
// append to X-Forwarded-For; the address is the entry the outermost of them added, never what the
// client wrote itself (its own X-Forwarded-For entries, or an x-client-address header).
import { afterAll, describe, expect, it } from "vitest";
import { createRouterTransport } from "@connectrpc/connect";
import { CLIENT_ADDRESS_HEADER } from "@signage/auth";
import { AuthService } from "@signage/contracts/signage/core/v1/auth_pb";
import { UserService } from "@signage/contracts/signage/core/v1/user_pb";
import { trustedProxiesFrom } from "../src/index.js";
import { listenGateway } from "./support/listen-gateway.js";

const seen: (string | null)[] = [];
const transport = createRouterTransport((router) => {
  router.service(UserService, {
    getMe(_req, ctx) {
      seen.push(ctx.requestHeader.get(CLIENT_ADDRESS_HEADER));
      return {};
    },
  });
  router.service(AuthService, {
    issueToken(_req, ctx) {
      seen.push(ctx.requestHeader.get(CLIENT_ADDRESS_HEADER));
      return { accessToken: "a", tokenType: "Bearer", expiresIn: 60n };
    },
  });
});

const gateways = await Promise.all([0, 1, 2].map((trustedProxies) => listenGateway(transport, { trustedProxies })));
afterAll(() => Promise.all(gateways.map((g) => g.close())));

/** What the service was told for one request to `GET /api/v2/user/me` and one to `POST /oauth/token`. */
async function reported(trustedProxies: number, headers: Record<string, string>): Promise<(string | null)[]> {
  seen.length = 0;
  const { base } = gateways[trustedProxies];
  expect((await fetch(`${base}/api/v2/user/me`, { headers: { authorization: "Bearer t", ...headers } })).ok).toBe(true);
  const token = await fetch(`${base}/oauth/token`, { method: "POST", headers, body: new URLSearchParams({ grant_type: "password", username: "u", password: "p" }) });
  expect(token.status).toBe(200);
  return [...seen];
}

describe("the client address reported to the services", () => {
  const forwarded = { "x-forwarded-for": "192.0.2.1, 198.51.100.2, 203.0.113.3" };

  it("without trusted proxies (the default) is the connection's peer: X-Forwarded-For is the client's own say and ignored", async () => {
    expect(await reported(0, forwarded)).toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  it("with trusted proxies is the entry the outermost of them appended; entries left of it are ignored", async () => {
    expect(await reported(1, forwarded)).toEqual(["203.0.113.3", "203.0.113.3"]);
    expect(await reported(2, forwarded)).toEqual(["198.51.100.2", "198.51.100.2"]);
    expect(await reported(1, {}), "no X-Forwarded-For: the peer").toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  it("is never the client's own x-client-address header", async () => {
    expect(await reported(0, { [CLIENT_ADDRESS_HEADER]: "192.0.2.99" })).toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  it("GATEWAY_TRUSTED_PROXIES: a whole number from 0 to 16, 0 when unset; anything else stops start-up", () => {
    expect(trustedProxiesFrom({})).toBe(0);
    expect(trustedProxiesFrom({ GATEWAY_TRUSTED_PROXIES: " 16 " })).toBe(16);
    for (const value of ["17", "-1", "1.5", "one", "1e1"]) expect(() => trustedProxiesFrom({ GATEWAY_TRUSTED_PROXIES: value }), value).toThrow("GATEWAY_TRUSTED_PROXIES");
  });
});
