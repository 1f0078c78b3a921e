// Bulk tag and validity writes race with other writes of the same file. Core's tag index (the
// counts of GET /api/tag, and "DELETE /api/tag ... (refused while in use)", document 2) keeps the
// state with the highest `version`, the file's update_date. A bulk statement that waited for a
// file's row while a later-started write committed must still write a newer update_date than that
// write: else the file's final tags (and later its team changes, which repeat update_date) are
// announced with an older version and core drops them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, eventually } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_bulk_tag_version");
  t = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

/** Resolves once a statement of this database starting with `statement` waits for a row lock (the write behind the test's lock). */
async function waitingForLock(statement: string) {
  await eventually(
    () => lib.knex.raw(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike ?`, [`${statement}%`]),
    (r: { rows: { n: number }[] }) => r.rows[0].n > 0,
    "write waiting for the locked row",
  );
}

const fileTagCount = async (tag: string) => {
  const res = await lib.http.get("/api/tag", { token: t.owner.token, query: { select: "fileTags" } });
  return res.body.fileTags?.[tag]?.count ?? 0;
};

/**
 * Runs `bulk` (touching first `first`, then `second`) while the test holds `first`'s row, and
 * `meanwhile` (a write of `second` started after the bulk call) while the bulk call waits.
 */
async function race(firstId: string, bulk: () => Promise<{ status: number; text: string }>, meanwhile: () => Promise<{ status: number; text: string }>, waits = 'update "file"', bulkStatus = 204) {
  const lock = await lib.knex.transaction();
  try {
    await lock("file").where({ id: firstId }).forUpdate().first("id");
    const pending = bulk();
    await waitingForLock(waits);
    const later = await meanwhile();
    expect(later.status, later.text).toBe(204);
    await lock.commit();
    const res = await pending;
    expect(res.status, res.text).toBe(bulkStatus);
  } finally {
    if (!lock.isCompleted()) await lock.rollback();
  }
}

describe("'Add / remove / set tags on many files' and 'Set validity on many files' announce each file's final state newer than any write they waited for", { timeout: 30_000 }, () => {
  it("'fileTags, each a map from tag to {count, comment}' and 'DELETE /api/tag ... (refused while in use)': a tags/add that waited for a file while a later tags/add of it committed still counts there", async () => {
    const y = await lib.file(t, { name: "race-a.png" });
    const x = await lib.file(t, { name: "race-b.png" });
    const add = (search: string, tag: string) => () => lib.http.post("/api/v2/file/tags/add", { token: t.editor.token, query: { search }, body: [tag] });

    await race(y.id, add("name^race-", "first"), add(`id=${x.id}`, "second"));

    expect((await lib.knex("file").where({ id: x.id }).first("tags")).tags).toEqual(["second", "first"]);
    // Both files carry "first": core's index counts both.
    await eventually(() => fileTagCount("first"), (n) => n === 2, "tag 'first' counted on both files");
    // Without it on y, x still uses it: the tag cannot be deleted.
    expect((await lib.http.post("/api/v2/file/tags/remove", { token: t.editor.token, query: { search: `id=${y.id}` }, body: ["first"] })).status).toBe(204);
    await eventually(() => fileTagCount("first"), (n) => n === 1, "tag 'first' left on x");
    const del = await lib.http.delete("/api/tag", { token: t.owner.token, query: { tag: "first", tagType: "FILE" } });
    expect([del.status, del.body.key]).toEqual([409, "tag.error.inUse"]);
  });

  it("a validity/set that waited for a file never moves its update_date back: the file's next team change reaches core's per-team tag index", async () => {
    const y = await lib.file(t, { name: "vrace-a.png" });
    const x = await lib.file(t, { name: "vrace-b.png" });
    const team = await lib.http.post("/api/team/", { token: t.owner.token, body: { name: "vrace" } });
    expect(team.status, team.text).toBe(200);

    await race(
      y.id,
      () => lib.http.post("/api/v2/file/validity/set", { token: t.approver.token, query: { search: "name^vrace-", validTo: 4102444800000 } }),
      () => lib.http.post("/api/v2/file/tags/add", { token: t.editor.token, query: { search: `id=${x.id}` }, body: ["vtag"] }),
    );
    expect(Number((await lib.knex("file").where({ id: x.id }).first("valid_to")).valid_to)).toBe(4102444800000);

    await teamChangeReachesTagIndex(x.id, team.body.id, "vtag", "vrace-other");
  });

  it("'Move files and folders' (moveBatchToFolder) never moves a file's update_date back either: the file's next team change reaches core's tag index", async () => {
    const y = await lib.file(t, { name: "mrace-a.png" });
    const x = await lib.file(t, { name: "mrace-b.png" });
    const target = await lib.folder(t, t.rootId, "mrace-target");
    const team = await lib.http.post("/api/team/", { token: t.owner.token, body: { name: "mrace" } });
    expect(team.status, team.text).toBe(200);

    await race(
      y.id,
      () => lib.http.post("/api/fileFolder/moveBatchToFolder", { token: t.editor.token, body: { targetFolder: { id: target.id }, fileIds: [y.id, x.id] } }),
      () => lib.http.post("/api/v2/file/tags/add", { token: t.editor.token, query: { search: `id=${x.id}` }, body: ["mtag"] }),
      "select",
      200,
    );
    expect((await lib.knex("file").where({ id: x.id }).first("file_folder_id")).file_folder_id).toBe(target.id);
    await teamChangeReachesTagIndex(x.id, team.body.id, "mtag", "mrace-other");
  });
});

/**
 * A restricted user of another team sees `tag` on file `fileId` while it has no team
 * ("accessResourcesWithoutTeam", default true), and no longer once the file belongs to `teamId`,
 * not theirs ("restricted = sees only team-assigned resources"): only if core took the team change.
 */
async function teamChangeReachesTagIndex(fileId: string, teamId: number, tag: string, otherTeamName: string) {
  const other = await lib.http.post("/api/team/", { token: t.owner.token, body: { name: otherTeamName } });
  const restricted = await createUser(lib.http, lib.admin, t.id, "VIEWER", { restricted: true });
  const join = await lib.http.post("/api/user/updateTeamAssignments", { token: t.owner.token, query: { email: restricted.email }, body: { assignToTeams: [{ teamId: other.body.id, readOnly: false }] } });
  expect(join.status, join.text).toBe(204);
  const restrictedCount = async () => (await lib.http.get("/api/tag", { token: restricted.token, query: { select: "fileTags" } })).body.fileTags?.[tag]?.count ?? 0;
  await eventually(restrictedCount, (n) => n === 1, "tag counted for the restricted user");
  const assign = await lib.http.post("/api/file/updateTeamAssignments", { token: t.owner.token, query: { fileId }, body: { assignToTeams: [{ teamId, readOnly: false }] } });
  expect(assign.status, assign.text).toBe(204);
  await eventually(restrictedCount, (n) => n === 0, "the file's team change reached core's tag index");
}
