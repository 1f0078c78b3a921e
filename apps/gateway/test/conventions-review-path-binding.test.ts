// In-memory level: the resource a call acts on is the one its path names. Document 3 (UI profiles):
// "POST `/{id}/assign` body `{assignUserIds: [email], removeUserIds: [email]}`." The body has no `id`;
// google.api.http's `body: "*"` maps "every field not bound by the path template" to it. A body `id`
// used to overwrite the path's: POST .../1/assign with {"id": 2, ...} assigned profile 2.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRouterTransport } from "@connectrpc/connect";
import { allFiles } from "@signage/contracts";
import { UserInterfaceProfileService, type AssignUserInterfaceProfileRequest } from "@signage/contracts/signage/core/v1/ui_profile_pb";
import { createGateway, upstreamsByPackage } from "../src/index.js";
import { bearerFetch as fetch } from "./support/bearer-fetch.js";

const silent = { info() {}, warn() {}, error() {}, debug() {} };
const assigned: AssignUserInterfaceProfileRequest[] = [];
let base = "";
let close: () => Promise<unknown>;

beforeAll(() => {
  const transport = createRouterTransport((router) => router.service(UserInterfaceProfileService, { assignUserInterfaceProfile: (req) => (assigned.push(req), {}) }));
  const upstreams = upstreamsByPackage({ core: transport, media: transport, integration: transport, reporting: transport, licensing: transport });
  const server = createGateway({ files: allFiles, upstreams, logger: silent }).app.listen(0);
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  close = () => new Promise((r) => server.close(r));
});
afterAll(() => close());

const assign = (path: string, body: unknown) => fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("POST /api/v2/userInterfaceProfile/{id}/assign (body '*'): the path's id wins over a body id", () => {
  it("a body id naming another profile does not redirect the call", async () => {
    const res = await assign("/api/v2/userInterfaceProfile/1/assign", { id: 2, assignUserIds: ["a@example.test"] });
    expect(res.status).toBe(204);
    expect(assigned.at(-1)).toMatchObject({ id: 1n, assignUserIds: ["a@example.test"] });
  });

  it("the body fields the path does not bind still arrive", async () => {
    const res = await assign("/api/v2/userInterfaceProfile/7/assign", { assignUserIds: ["a@example.test"], removeUserIds: ["b@example.test"] });
    expect(res.status).toBe(204);
    expect(assigned.at(-1)).toMatchObject({ id: 7n, assignUserIds: ["a@example.test"], removeUserIds: ["b@example.test"] });
  });
});
