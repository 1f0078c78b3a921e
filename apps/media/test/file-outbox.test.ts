// "Nothing lost": media's events are stored in the transaction of the change
// they announce (the service's event_outbox) and published by the module's
// relay after commit; a rolled-back change stores and publishes nothing.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createOutbox } from "@signage/events";
import { eventually } from "@signage/testing";
import { startLibrary, type Library, type Tenant } from "./files-support.js";
import { announceDeletedFiles, deleteFileRows } from "../src/files/file-delete.js";
import { teamsNotAvailable } from "../src/files/team-hooks.js";

let lib: Library;
let a: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_outbox");
  a = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

const outboxRows = (ids: string[]) => lib.knex("event_outbox").whereIn("event_id", ids);

/** Deletes `fileId` and announces it in one transaction; `rollback` fails the transaction afterwards. */
async function deleteInTransaction(fileId: string, rollback: boolean) {
  // Not started: what it stores is published by the media module's relay (same table).
  const outbox = createOutbox({ knex: lib.knex, bus: lib.platform.bus });
  const seen: { inside: { event_id: string; type: string }[]; outside: unknown[] } = { inside: [], outside: [] };
  const run = lib.knex.transaction(async (trx) => {
    const blobs = await deleteFileRows(trx, teamsNotAvailable, a.id, [fileId]);
    await announceDeletedFiles(trx, outbox, a.id, blobs, true);
    seen.inside = await trx("event_outbox").whereRaw("data::text like ?", [`%${fileId}%`]).orderBy("seq").select("event_id", "type");
    // Another connection sees neither the deletion nor its events before commit.
    seen.outside = await outboxRows(seen.inside.map((r) => r.event_id));
    if (rollback) throw new Error("rollback");
  });
  await (rollback ? run.catch(() => undefined) : run);
  return seen;
}

describe("media events through the transactional outbox", () => {
  it("a file delete stores media.file.deleted and tags.resourceDeleted with the deletion; the relay publishes them after commit", async () => {
    const f = await lib.file(a, { tags: ["outbox"] });
    const seen = await deleteInTransaction(f.id, false);
    expect(seen.inside.map((r) => r.type)).toEqual(["media.file.deleted", "tags.resourceDeleted"]);
    expect(seen.outside).toEqual([]);
    expect(await lib.knex("file").where({ id: f.id }).first()).toBeUndefined();
    const deletedId = seen.inside[0].event_id;
    const [event] = await lib.eventsOf("media.file.deleted", (e) => e.id === deletedId);
    expect(event).toMatchObject({ customerId: a.id, data: { fileIds: [f.id], removeFromPlaylists: true } });
    // Published rows leave the outbox.
    await eventually(() => outboxRows(seen.inside.map((r) => r.event_id)), (rows) => rows.length === 0, "outbox drained");
  });

  it("a rolled-back delete leaves the file and stores no event; nothing is published", async () => {
    const f = await lib.file(a);
    const seen = await deleteInTransaction(f.id, true);
    expect(seen.inside).toHaveLength(2);
    expect(await lib.knex("file").where({ id: f.id }).first()).toBeDefined();
    expect(await outboxRows(seen.inside.map((r) => r.event_id))).toEqual([]);
    // Longer than the relay's poll interval (250 ms).
    await new Promise((r) => setTimeout(r, 600));
    expect(lib.events.filter((e) => e.data?.fileIds?.includes(f.id))).toEqual([]);
  });

  it("tags written over HTTP reach core's tag map, and a delete removes them (tags.changed / tags.resourceDeleted via the relay)", async () => {
    const f = await lib.file(a, { name: "tagged.png" });
    const res = await lib.http.put(`/api/file/${f.id}`, { token: a.editor.token, body: { tags: ["outbox-tag"] } });
    expect(res.status, res.text).toBe(200);
    const tagMap = () => lib.http.get("/api/tag", { token: a.editor.token, query: { select: "fileTags" } });
    await eventually(tagMap, (r) => r.body.fileTags?.["outbox-tag"]?.count === 1, "tag counted");
    expect((await lib.http.delete(`/api/file/${f.id}`, { token: a.editor.token })).status).toBeLessThan(300);
    await eventually(tagMap, (r) => r.status === 200 && !r.body.fileTags?.["outbox-tag"]?.count, "tag released");
  });

  it("a filtered folder's quick filter usage blocks the filter's deletion until the folder is deleted (quickFilter.usage.changed via the relay)", async () => {
    const filter = await lib.http.post("/api/quickFilter/", { token: a.editor.token, body: { name: "outbox", filteredEntityType: "FILE", criteria: { tags: ["outbox-tag"] } } });
    expect(filter.status, filter.text).toBe(200);
    const folder = await lib.http.post("/api/fileFolder/addFilteredFileFolder", { token: a.editor.token, query: { parentId: a.rootId, name: "filtered", quickFilterId: filter.body.id } });
    expect(folder.status, folder.text).toBe(200);
    const removeFilter = () => lib.http.delete("/api/quickFilter/", { token: a.editor.token, query: { quickFilterId: filter.body.id } });
    const usage = () => lib.platform.knexOf("core")("quick_filter_usage").where({ quick_filter_id: filter.body.id, used: true }).first();
    await eventually(usage, (row) => row !== undefined, "usage recorded");
    const refused = await removeFilter();
    expect([refused.status, refused.body.key]).toEqual([409, "quickFilter.error.inUse"]);
    expect((await lib.http.delete(`/api/fileFolder/${folder.body.id}`, { token: a.editor.token })).status).toBeLessThan(300);
    await eventually(removeFilter, (r) => r.status === 204, "usage released");
  });

  it("'DELETE ... refused while used by ... filtered folders' only while used: a folder created where the clock runs ahead and deleted at once still releases its filter (versions from the database's clock)", async () => {
    const filter = await lib.http.post("/api/quickFilter/", { token: a.editor.token, body: { name: "skewed", filteredEntityType: "FILE", criteria: { tags: ["skew-tag"] } } });
    expect(filter.status, filter.text).toBe(200);
    // The create runs as on a replica whose clock is 5 s ahead; the delete as on one that is right.
    const ahead = vi.spyOn(Date, "now").mockImplementation(() => realNow() + 5_000);
    let folder;
    try {
      folder = await lib.http.post("/api/fileFolder/addFilteredFileFolder", { token: a.editor.token, query: { parentId: a.rootId, name: "skewed", quickFilterId: filter.body.id } });
    } finally {
      ahead.mockRestore();
    }
    expect(folder.status, folder.text).toBe(200);
    const usage = () => lib.platform.knexOf("core")("quick_filter_usage").where({ quick_filter_id: filter.body.id }).first();
    await eventually(usage, (row) => row?.used === true, "usage recorded");
    expect((await lib.http.delete(`/api/fileFolder/${folder.body.id}`, { token: a.editor.token })).status).toBeLessThan(300);
    await eventually(usage, (row) => row?.used === false, "usage released");
    expect((await lib.http.delete("/api/quickFilter/", { token: a.editor.token, query: { quickFilterId: filter.body.id } })).status).toBe(204);
  });
});

const realNow = Date.now.bind(Date);
