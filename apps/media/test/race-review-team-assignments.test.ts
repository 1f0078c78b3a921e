// A team assignment update that raced a delete of its resource (document 2: "Modify with POST
// /api/{resource}/updateTeamAssignments?{idParam}=<id> (OWNER), body assignToTeams ...").
// The update checked the file outside its write transaction; a delete committed in between left
// a team_assignment row for a file that no longer exists (listed by GET /api/team/fileAssignments
// for good), and both calls answered 204. Now the write holds the resource rows and answers 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_race_team_assign");
  t = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

/** Resolves once a statement of this database waits for a row lock held by the test. */
async function someoneWaitsForLock() {
  await eventually(
    () => lib.knex.raw(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`),
    (r: { rows: { n: number }[] }) => r.rows[0].n > 0,
    "assignment update waiting for the file's row",
  );
}

describe("updateTeamAssignments racing the resource's delete", { timeout: 30_000 }, () => {
  it("'Modify with POST /api/{resource}/updateTeamAssignments': a file deleted while the update waited answers 404 and leaves no assignment behind", async () => {
    const team = await lib.http.post("/api/team/", { token: t.owner.token, body: { name: "assign-race" } });
    expect(team.status, team.text).toBe(200);
    const file = await lib.file(t, { name: "assign-race.png" });

    // The test plays the delete: it holds the file's row while the update is under way, then
    // deletes the file (and its assignments, as media's delete does) and commits.
    const del = await lib.knex.transaction();
    try {
      await del("file").where({ id: file.id }).forUpdate().first("id");
      const pending = lib.http.post("/api/file/updateTeamAssignments", { token: t.owner.token, query: { fileId: file.id }, body: { assignToTeams: [{ teamId: team.body.id, readOnly: false }] } });
      await someoneWaitsForLock();
      await del("team_assignment").where({ resource_id: file.id }).delete();
      await del("file").where({ id: file.id }).delete();
      await del.commit();
      const res = await pending;
      expect([res.status, res.body.key], res.text).toEqual([404, "team.error.resourceNotFound"]);
    } finally {
      if (!del.isCompleted()) await del.rollback();
    }
    expect(await lib.knex("team_assignment").where({ resource_id: file.id })).toEqual([]);
    const listed = await lib.http.get("/api/team/fileAssignments", { token: t.owner.token, query: { teamId: team.body.id } });
    expect(listed.status, listed.text).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(file.id);
  });
});
