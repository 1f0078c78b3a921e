// Media's team replica against media's own assignment writes, on the real bus (JetStream).
// Document 2 "Teams on resources": "All team-enabled resources (... file, and others) expose
// `teamAssignments`", and teams have "List / create / update / delete team"; DESIGN: "A service
// keeps local replicas it needs (e.g. the tenant directory) fed by events" (media applies core's
// team.deleted to its replica and removes the team from its files and folders).
// An assignment write running next to the team's deletion must not leave the file or folder
// assigned to a team that no longer exists, and an answer core gave before a deletion must not
// bring the deleted team back into the replica.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { TeamEvent } from "@signage/runtime";
import { createCustomer, createUser, eventually, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { insertFile } from "../src/files/file-repository.js";

let platform: TestPlatform;
let customerId: number;
let owner: TenantUser;
let rootId: string;
const media = () => platform.knexOf("media");

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], bus: "jetstream", prefix: "media_events_team_races" });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerId = (await createCustomer(platform.http, admin)).id;
  owner = await createUser(platform.http, admin, customerId, "OWNER");
  const root = await eventually(
    () => platform.http.get("/api/v2/fileFolder", { token: owner.token, query: { search: "parentId=NULL" } }),
    (r) => r.body.content?.[0]?.id !== undefined,
    "root folder",
  );
  rootId = root.body.content[0].id;
}, 60_000);
afterAll(() => platform?.close(), 30_000);

// Far above what core's own outbox reaches in this test.
let nextSeq = 50_000_000;

/** A team created in core, once media's replica has it (core's team.created). */
async function replicatedTeam(name: string): Promise<string> {
  const res = await platform.http.post("/api/team/", { token: owner.token, body: { name } });
  expect(res.status, res.text).toBe(200);
  await eventually(() => media()("team").where({ id: res.body.id }).first("id"), (row) => row !== undefined, "team replicated");
  return res.body.id;
}

async function folder(name: string): Promise<string> {
  const res = await platform.http.post("/api/fileFolder/", { token: owner.token, query: { parentId: rootId, name } });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

/** Publishes core's team.deleted as its relay would (a seq above core's own); returns the event id. */
async function publishTeamDeleted(teamId: string): Promise<string> {
  const id = randomUUID();
  await platform.bus.publish({ id, type: TeamEvent.deleted, customerId, seq: nextSeq++, data: { id: teamId, customerId, name: null } });
  return id;
}

const handled = (eventId: string) => media()("event_inbox").where({ consumer: "media.teams", event_id: eventId }).first("event_id");

const assign = (fileFolderId: string, teamId: string) =>
  platform.http.post("/api/fileFolder/updateTeamAssignments", { token: owner.token, query: { fileFolderId }, body: { assignToTeams: [{ teamId, readOnly: false }] } });

/** Statements of this database waiting for a lock whose text starts with `prefix`. */
async function waiting(prefix: string): Promise<number> {
  const { rows } = await media().raw("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike ?", [`${prefix}%`]);
  return rows[0].n;
}

describe("events review: team.deleted next to media's own assignment writes", () => {
  it("'All team-enabled resources ... expose `teamAssignments`' after 'delete team': an assignment written while media applies team.deleted does not survive it", async () => {
    const team = await replicatedTeam("Deleted while assigned");
    const target = await folder("assigned-during-deletion");
    // The test holds the assignment's key, so the write stops right before its insert (after its checks).
    const hold = await media().transaction();
    let write: ReturnType<typeof assign> | undefined;
    try {
      await hold("team_assignment").insert({ resource_type: "fileFolder", resource_id: target, team_id: team, read_only: false, customer_id: customerId });
      write = assign(target, team);
      await eventually(() => waiting('insert into "team_assignment"'), (n) => n > 0, "assignment write waiting at its insert");
      // team.deleted arrives while the write is under way: applied (or waiting for the write).
      const deletion = await publishTeamDeleted(team);
      await eventually(async () => ((await handled(deletion)) ? 1 : 0) + (await waiting("select")), (n) => n > 0, "team.deleted applied or waiting for the write");
      await hold.rollback();
      const res = await write;
      expect(res.status, res.text).toBeLessThan(300);
      await eventually(() => handled(deletion), (row) => row !== undefined, "team.deleted handled", 10_000);
    } finally {
      if (!hold.isCompleted()) await hold.rollback();
      await write?.catch(() => undefined);
    }
    expect(await media()("team_assignment").where({ resource_id: target })).toEqual([]);
    expect(await media()("file_folder").where({ id: target }).first("team_ids")).toEqual({ team_ids: [] });
    expect(await media()("team").where({ id: team })).toEqual([]);
  });

  it("'delete team' and 'local replicas ... fed by events': core's answer from before the deletion does not bring a team the replica saw deleted back (400 team.error.notFound, nothing written)", async () => {
    const team = await replicatedTeam("Seen deleted");
    const target = await folder("assigned-after-deletion");
    // Media applied the team's deletion; core (in this test) still answers for the team, as it did
    // for a request that asked just before the deletion committed.
    const deletion = await publishTeamDeleted(team);
    await eventually(() => handled(deletion), (row) => row !== undefined, "team.deleted handled");
    const res = await assign(target, team);
    expect([res.status, res.body.key, res.body.details?.teamIds], res.text).toEqual([400, "team.error.notFound", [team]]);
    expect(await media()("team").where({ id: team })).toEqual([]);
    expect(await media()("team_assignment").where({ resource_id: target })).toEqual([]);
  });

  it("'All team-enabled resources ... expose `teamAssignments`': two assignment updates of one file at once leave its team_ids (visibility, and the teamIds of its tags.changed) with both teams", async () => {
    const [teamA, teamB] = [await replicatedTeam("Concurrent A"), await replicatedTeam("Concurrent B")];
    const file = await insertFile(media(), { customerId, name: "two-writers.png", contentType: "image/png", size: 100, fileFolderId: rootId, tags: ["two-writers"] });
    const assignFile = (teamId: string) =>
      platform.http.post("/api/file/updateTeamAssignments", { token: owner.token, query: { fileId: file.id }, body: { assignToTeams: [{ teamId, readOnly: false }] } });
    // The test holds the file's row: both writes insert their assignment, then queue for the row.
    const hold = await media().transaction();
    const writes: ReturnType<typeof assignFile>[] = [];
    try {
      await hold("file").where({ id: file.id }).forUpdate().first("id");
      writes.push(assignFile(teamA));
      await eventually(() => waiting(""), (n) => n >= 1, "first write waiting for the file's row");
      writes.push(assignFile(teamB));
      await eventually(() => waiting(""), (n) => n >= 2, "second write waiting for the file's row");
      await hold.commit();
      for (const res of await Promise.all(writes)) expect(res.status, res.text).toBeLessThan(300);
    } finally {
      if (!hold.isCompleted()) await hold.rollback();
      await Promise.allSettled(writes);
    }
    const both = [teamA, teamB].sort();
    expect((await media()("team_assignment").where({ resource_id: file.id }).pluck("team_id")).sort()).toEqual(both);
    expect(await media()("file").where({ id: file.id }).first("team_ids")).toEqual({ team_ids: both });
  });
});
