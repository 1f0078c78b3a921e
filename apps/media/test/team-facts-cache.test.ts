// Media keeps each caller's team facts briefly (TEAM_ACCESS_CACHE_MS) and drops
// a tenant's answers when its replica applies one of the tenant's team events.
// With a 10-minute cache only that eviction can make a change visible here, so
// every step below proves it: a restricted user "sees only team-assigned
// resources" (document 2) as soon as media has the change, not ten minutes later.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, eventually, type TenantUser } from "@signage/testing";
import { multipart, png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;
let restricted: TenantUser;

const http = () => env.platform.http;

beforeAll(async () => {
  env = await startUploadPlatform("media_team_facts_cache", { TEAM_ACCESS_CACHE_MS: "600000" });
  t = await env.tenant();
}, 60_000);
afterAll(() => env?.close());

async function visibleNames(token: string): Promise<string[]> {
  const res = await http().get("/api/v2/file", { token, query: { search: "name^cached-" } });
  expect(res.status, res.text).toBe(200);
  return res.body.content.map((f: { name: string }) => f.name).sort();
}

function teamAssignments(body: Record<string, unknown>) {
  return http().post("/api/user/updateTeamAssignments", { token: t.owner.token, query: { email: restricted.email }, body });
}

describe("team facts cache (TEAM_ACCESS_CACHE_MS=600000)", { timeout: 30_000 }, () => {
  it("joining and leaving teams changes what a restricted user lists once media applied the change, despite the answers cached before", async () => {
    const team = async () => (await http().post("/api/team/", { token: t.owner.token, body: { name: `cache-${randomUUID()}` } })).body.id as string;
    const [home, other] = [await team(), await team()];
    const upload = (name: string, query: Record<string, string> = {}) =>
      http().post("/api/file", { token: t.owner.token, query, body: multipart([{ name: "files[]", filename: name, type: "image/png", data: png(2, 2) }]) });
    expect((await upload("cached-other.png", { teamIds: `${other}:false` })).status).toBe(200);
    expect((await upload("cached-open.png")).status).toBe(200);

    // In no team yet, a restricted user has full access ("userFullAccessIfNotInTeam", default true); media caches that answer.
    restricted = await createUser(http(), env.admin, t.id, "VIEWER", { restricted: true });
    expect(await visibleNames(restricted.token)).toEqual(["cached-open.png", "cached-other.png"]);

    expect((await teamAssignments({ assignToTeams: [{ teamId: home, readOnly: true }] })).status).toBeLessThan(300);
    await eventually(() => visibleNames(restricted.token), (names) => names.join() === "cached-open.png", "joining a first team replicated");

    expect((await teamAssignments({ assignToTeams: [{ teamId: other, readOnly: true }] })).status).toBeLessThan(300);
    await eventually(() => visibleNames(restricted.token), (names) => names.join() === "cached-open.png,cached-other.png", "joining the file's team replicated");

    expect((await teamAssignments({ removeFromTeamIds: [other] })).status).toBeLessThan(300);
    await eventually(() => visibleNames(restricted.token), (names) => names.join() === "cached-open.png", "leaving the file's team replicated");
  });
});
