import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, createClient } from "@connectrpc/connect";
import { connectNodeAdapter, createConnectTransport } from "@connectrpc/connect-node";
import { ProbeService } from "@signage/contracts/signage/testing/v1/probe_pb";
import { createAuthInterceptor, forwardAuthInterceptor, requireAuth } from "../src/index.js";
import { directory, expectError, OTHER_TENANT, parseScope, Role, token, verifier } from "./support.js";

// Same rules over a real HTTP server: headers and the ErrorDetail survive the wire.
describe("auth interceptor on a real Connect server", () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    const handler = connectNodeAdapter({
      interceptors: [createAuthInterceptor({ verifier, directory })],
      routes: ({ service }) =>
        service(ProbeService, {
          viewerRead: (_req, ctx) => ({ scope: JSON.stringify(requireAuth(ctx).scope) }),
        }),
    });
    server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("401 without a token; a client forwarding the caller's token gets its own tenant", async () => {
    const anonymous = createClient(ProbeService, createConnectTransport({ baseUrl, httpVersion: "1.1" }));
    await expectError(anonymous.viewerRead({}), Code.Unauthenticated, "auth.error.unauthorized");

    const t = await token({ role: Role.VIEWER, customerId: OTHER_TENANT });
    const forwarding = createClient(
      ProbeService,
      createConnectTransport({ baseUrl, httpVersion: "1.1", interceptors: [forwardAuthInterceptor(() => t)] }),
    );
    const res = await forwarding.viewerRead({ customerId: 999n });
    expect(parseScope(res.scope)).toEqual({ kind: "tenants", customerIds: [OTHER_TENANT] });
  });
});
