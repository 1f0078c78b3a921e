// Core's tag index (the counts of GET /api/tag, per team for team users) is fed by media's
// `tags.changed` events: each carries the file's full tags and team ids and a `version` that
// "grows with each change of the resource" (libs/runtime tag-events.ts); core keeps the highest
// and re-applies an equal one. DESIGN: "consumers are idempotent (dedupe on event id)", and the
// bus redelivers a failed event after later ones went through (or a second core replica takes
// the next one meanwhile). Two team changes of one file announced with one version let the older
// state, applied last, win: the file counted for a team it left. On the real bus (JetStream).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import type { EventEnvelope } from "@signage/events";
import { createCustomer, createUser, eventually, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { insertFile } from "../src/files/file-repository.js";

let platform: TestPlatform;
let customerId: number;
let owner: TenantUser;
const seen: EventEnvelope<{ resourceId: string; teamIds: string[]; tags: string[]; version: number }>[] = [];

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], bus: "jetstream", prefix: "media_events_tag_versions" });
  await platform.bus.subscribe({ consumer: `test-tags-${randomUUID()}`, types: ["tags.changed"], handler: async (e: any) => void seen.push(e) });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerId = (await createCustomer(platform.http, admin)).id;
  owner = await createUser(platform.http, admin, customerId, "OWNER");
}, 60_000);
afterAll(() => platform?.close(), 30_000);

const coreHandled = (eventId: string) => platform.knexOf("core")("event_inbox").where({ consumer: "core.tag-index", event_id: eventId }).first("event_id");

async function announced(fileId: string, teamIds: string[]) {
  const hit = await eventually(
    async () => seen.find((e) => e.data.resourceId === fileId && JSON.stringify(e.data.teamIds) === JSON.stringify(teamIds)),
    (e) => e !== undefined,
    `tags.changed of ${fileId} with teams ${JSON.stringify(teamIds)}`,
  );
  return hit!;
}

describe("events review: media's tags.changed versions grow with every team change of a file", () => {
  it("'fileTags, each a map from tag to {count, comment}': a team assignment and its removal are announced with growing versions, so core applying the older one last keeps the file out of the team", async () => {
    const created = await platform.http.post("/api/team/", { token: owner.token, body: { name: "Tag team" } });
    expect(created.status, created.text).toBe(200);
    const team: string = created.body.id;
    await eventually(() => platform.knexOf("media")("team").where({ id: team }).first("id"), (row) => row !== undefined, "team replicated");
    const file = await insertFile(platform.knexOf("media"), { customerId, name: "tagged.png", contentType: "image/png", size: 100, tags: ["review-tag"] });

    const add = await platform.http.post("/api/file/updateTeamAssignments", { token: owner.token, query: { fileId: file.id }, body: { assignToTeams: [{ teamId: team, readOnly: false }] } });
    expect(add.status, add.text).toBeLessThan(300);
    const assigned = await announced(file.id, [team]);
    const remove = await platform.http.post("/api/file/updateTeamAssignments", { token: owner.token, query: { fileId: file.id }, body: { removeFromTeamIds: [team] } });
    expect(remove.status, remove.text).toBeLessThan(300);
    const unassigned = await announced(file.id, []);
    expect(unassigned.data.version).toBeGreaterThan(assigned.data.version);

    // The assignment's event applied after the removal's (as after a failed first attempt): core keeps the newer state.
    await eventually(() => coreHandled(unassigned.id), (row) => row !== undefined, "core applied the removal");
    const retried = randomUUID();
    await platform.bus.publish({ id: retried, type: assigned.type, customerId, seq: assigned.seq, data: assigned.data });
    await eventually(() => coreHandled(retried), (row) => row !== undefined, "core handled the older event");
    expect(await platform.knexOf("core")("tag_assignment").where({ resource_id: file.id }).select("tag", "team_ids")).toEqual([{ tag: "review-tag", team_ids: [] }]);
  });

  it("'teamAssignmentMode (MERGE default, OVERWRITE, KEEP_TARGET)': a replace that changes the source file's teams announces them with a newer version than the source's last team change", async () => {
    const [teamA, teamB] = await Promise.all(["Replaced team", "Source team"].map(async (name) => {
      const res = await platform.http.post("/api/team/", { token: owner.token, body: { name } });
      expect(res.status, res.text).toBe(200);
      return res.body.id as string;
    }));
    for (const id of [teamA, teamB]) await eventually(() => platform.knexOf("media")("team").where({ id }).first("id"), (row) => row !== undefined, "team replicated");
    const media = platform.knexOf("media");
    const source = await insertFile(media, { customerId, name: "source.png", contentType: "image/png", size: 100, tags: ["replace-tag"] });
    const replaced = await insertFile(media, { customerId, name: "replaced.png", contentType: "image/png", size: 100 });
    for (const [fileId, teamId] of [[source.id, teamB], [replaced.id, teamA]]) {
      const res = await platform.http.post("/api/file/updateTeamAssignments", { token: owner.token, query: { fileId }, body: { assignToTeams: [{ teamId, readOnly: false }] } });
      expect(res.status, res.text).toBeLessThan(300);
    }
    const before = await announced(source.id, [teamB]);
    const res = await platform.http.put("/api/file/replaceFileReference", { token: owner.token, query: { fileIdToReplace: replaced.id, sourceFileId: source.id, teamAssignmentMode: "OVERWRITE" } });
    expect(res.status, res.text).toBeLessThan(300);
    const after = await announced(source.id, [teamA]);
    expect(after.data.version).toBeGreaterThan(before.data.version);
  });
});
