// Tags over HTTP: document 2 "Tag" and the tag rows of "Teams, tags, users,
// quick filters"; counts fed by `tags.changed` / `tags.resourceDeleted`
// events as other services' outbox relays publish them (built with the libs/runtime tags helpers).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { taggedResourceDeletedEvent, tagsChangedEvent, TAGS_CHANGED, type TagType } from "@signage/runtime";
import { coreModule } from "../src/module.js";
import { tagMaps } from "../src/tags/tag-repository.js";
import { tenantScope } from "@signage/auth";

let platform: TestPlatform;
let admin: string;
let customerA: number;
let customerB: number;
let editorA: TenantUser;
let viewerA: TenantUser;
let editorB: TenantUser;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_tags_test" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerA = (await createCustomer(platform.http, admin, { name: "Tags A" })).id;
  customerB = (await createCustomer(platform.http, admin, { name: "Tags B" })).id;
  editorA = await createUser(platform.http, admin, customerA, "EDITOR");
  viewerA = await createUser(platform.http, admin, customerA, "VIEWER");
  editorB = await createUser(platform.http, admin, customerB, "EDITOR");
});
afterAll(() => platform?.close());

const createTag = (token: string, tagType: string, tag: string, comment?: string) =>
  platform.http.post("/api/tag", { token, query: { tagType }, body: comment === undefined ? { tag } : { tag, comment } });

const listTags = (token: string, select?: string) => platform.http.get("/api/tag", { token, query: { select } });

/** Polls GET /api/tag until `check` holds (the index is fed asynchronously). */
async function eventually(token: string, check: (body: any) => boolean) {
  let body: any;
  for (let i = 0; i < 100; i++) {
    const res = await listTags(token);
    body = res.body;
    if (res.status === 200 && check(body)) return body;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`condition never held; last: ${JSON.stringify(body)}`);
}

function tagged(customerId: number, tagType: TagType, resourceId: string, tags: string[], version: number, teamIds: string[] = []) {
  return platform.bus.publish(tagsChangedEvent({ customerId, tagType, resourceId, tags, teamIds, version }));
}

describe("tags", () => {
  it("'Format: must not start with - or whitespace; letters, digits and - _ # . allowed; at most 2048 characters'", async () => {
    for (const bad of ["-lead", " lead", "\tlead", "a/b", "a,b", "x".repeat(2049), ""]) {
      const res = await createTag(editorA.token, "DEVICE", bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.key).toBe("tag.error.invalidFormat");
    }
    for (const good of ["Lobby_1#a.b-c", "Ünïcødé9", "x".repeat(2048), "two words"]) {
      const res = await createTag(editorA.token, "DEVICE", good);
      expect(res.status, `${good.slice(0, 20)}: ${res.text}`).toBe(200);
    }
  });

  it("'Tags are per customer and typed': create answers the tag; an existing tag is refused (409 tag.error.alreadyExists); unknown type is 400", async () => {
    const res = await createTag(editorA.token, "CAMPAIGN", "spring", "Spring sale");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ tag: "spring", comment: "Spring sale", tagType: "CAMPAIGN", count: 0 });
    const again = await createTag(editorA.token, "CAMPAIGN", "spring");
    expect(again.status).toBe(409);
    expect(again.body.key).toBe("tag.error.alreadyExists");
    // Same text, other type or other customer: a different tag.
    expect((await createTag(editorA.token, "MESSAGE", "spring")).status).toBe(200);
    expect((await createTag(editorB.token, "CAMPAIGN", "spring")).status).toBe(200);
    expect((await createTag(editorA.token, "NOPE", "x")).status).toBe(400);
  });

  it("tag writes need EDITOR ('Tags: create, update, delete ... EDITOR'); VIEWER reads", async () => {
    expect((await createTag(viewerA.token, "DEVICE", "viewer-made")).status).toBe(403);
    expect((await listTags(viewerA.token)).status).toBe(200);
  });

  it("'Listing response keys: deviceTags, deviceContentTags, campaignTags, messageTags, fileTags, each a map from tag to {count, comment}'; select keeps only the named maps", async () => {
    await createTag(editorA.token, "CONTENT", "menu", "Menu boards");
    const all = await listTags(editorA.token);
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(["campaignTags", "deviceContentTags", "deviceTags", "fileTags", "messageTags"]);
    expect(all.body.deviceContentTags.menu).toEqual({ count: 0, comment: "Menu boards" });
    expect(all.body.campaignTags.spring).toEqual({ count: 0, comment: "Spring sale" });

    const some = await listTags(editorA.token, "deviceContentTags,fileTags");
    expect(Object.keys(some.body).sort()).toEqual(["deviceContentTags", "fileTags"]);
    const bad = await listTags(editorA.token, "deviceTags,bogusTags");
    expect(bad.status).toBe(400);
    expect(bad.body.key).toBe("select.error.invalid");
  });

  it("another customer's tags never show ('Tags are per customer')", async () => {
    await createTag(editorB.token, "FILE", "b-only");
    const a = await listTags(editorA.token);
    expect(a.body.fileTags["b-only"]).toBeUndefined();
    // Even when A names B's customerId (non-admins: own tenant only).
    const viaSelector = await platform.http.get("/api/tag", { token: editorA.token, query: { customerId: customerB } });
    expect(viaSelector.body.fileTags["b-only"]).toBeUndefined();
    const asAdmin = await platform.http.get("/api/tag", { token: admin, query: { customerId: customerB } });
    expect(asAdmin.body.fileTags["b-only"]).toEqual({ count: 0 });
  });

  it("counts follow tags.changed / tags.resourceDeleted from any service: full sets, newest version wins, redelivery harmless", async () => {
    const r1 = randomUUID();
    const r2 = randomUUID();
    await tagged(customerA, "FILE", r1, ["poster", "summer"], 10);
    await tagged(customerA, "FILE", r2, ["poster"], 10);
    await eventually(editorA.token, (b) => b.fileTags.poster?.count === 2 && b.fileTags.summer?.count === 1);

    // r1 loses "poster" (full current set), then an older event for r2 arrives late: ignored.
    await tagged(customerA, "FILE", r1, ["summer"], 20);
    await tagged(customerA, "FILE", r2, [], 5);
    await eventually(editorA.token, (b) => b.fileTags.poster?.count === 1 && b.fileTags.summer?.count === 1);

    // The same event delivered twice (same id) counts once.
    const dup = { id: randomUUID(), type: TAGS_CHANGED, customerId: customerA, data: { tagType: "FILE", resourceId: randomUUID(), tags: ["dup"], teamIds: [], version: 1 } };
    await platform.bus.publish(dup);
    await platform.bus.publish(dup);
    await eventually(editorA.token, (b) => b.fileTags.dup?.count === 1);

    // Deletion removes the resource's tags; a change older than the deletion does not bring them back.
    await platform.bus.publish(taggedResourceDeletedEvent({ customerId: customerA, tagType: "FILE", resourceId: r2, version: 30 }));
    await tagged(customerA, "FILE", r2, ["poster"], 25);
    await eventually(editorA.token, (b) => b.fileTags.poster === undefined && b.fileTags.summer?.count === 1);
  });

  it("'GET /api/tag/suggest?keyword=<prefix>&entity=<TYPE> (prefix, case-insensitive)': defined and used tags of that type", async () => {
    await createTag(editorA.token, "DEVICE", "Entrance");
    await tagged(customerA, "DEVICE", randomUUID(), ["entry-hall", "exit"], 1);
    await eventually(editorA.token, (b) => b.deviceTags["entry-hall"]?.count === 1);
    const res = await platform.http.get("/api/tag/suggest", { token: viewerA.token, query: { keyword: "ENT", entity: "DEVICE" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(["Entrance", "entry-hall"]);
    // `_` and `%` are literal in the prefix, not wildcards.
    const literal = await platform.http.get("/api/tag/suggest", { token: viewerA.token, query: { keyword: "Lobby%", entity: "DEVICE" } });
    expect(literal.body).toEqual([]);
    const otherType = await platform.http.get("/api/tag/suggest", { token: viewerA.token, query: { keyword: "ent", entity: "FILE" } });
    expect(otherType.body).toEqual([]);
  });

  it("'PUT /api/tag?tag=<t>&tagType=<TYPE> body {comment}' updates the comment, also of a tag only in use; unknown tag 404", async () => {
    const res = await platform.http.put("/api/tag", { token: editorA.token, query: { tag: "spring", tagType: "CAMPAIGN" }, body: { comment: "Spring 2027" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tag: "spring", comment: "Spring 2027", tagType: "CAMPAIGN" });
    await eventually(editorA.token, (b) => b.campaignTags.spring?.comment === "Spring 2027");

    const used = await platform.http.put("/api/tag", { token: editorA.token, query: { tag: "summer", tagType: "FILE" }, body: { comment: "Used only" } });
    expect(used.status).toBe(200);
    expect(used.body.count).toBe(1);

    const missing = await platform.http.put("/api/tag", { token: editorA.token, query: { tag: "nothing-here", tagType: "FILE" }, body: { comment: "x" } });
    expect(missing.status).toBe(404);
    expect(missing.body.key).toBe("tag.error.notFound");
  });

  it("'DELETE /api/tag?tag=<t>&tagType=<TYPE> (refused while in use)'", async () => {
    await createTag(editorA.token, "MESSAGE", "urgent");
    const resource = randomUUID();
    await tagged(customerA, "MESSAGE", resource, ["urgent"], 1);
    await eventually(editorA.token, (b) => b.messageTags.urgent?.count === 1);

    const refused = await platform.http.delete("/api/tag", { token: editorA.token, query: { tag: "urgent", tagType: "MESSAGE" } });
    expect(refused.status).toBe(409);
    expect(refused.body.key).toBe("tag.error.inUse");

    await platform.bus.publish(taggedResourceDeletedEvent({ customerId: customerA, tagType: "MESSAGE", resourceId: resource, version: 2 }));
    await eventually(editorA.token, (b) => b.messageTags.urgent?.count === 0);
    const deleted = await platform.http.delete("/api/tag", { token: editorA.token, query: { tag: "urgent", tagType: "MESSAGE" } });
    expect(deleted.status).toBe(204);
    await eventually(editorA.token, (b) => b.messageTags.urgent === undefined);
    expect((await platform.http.delete("/api/tag", { token: editorA.token, query: { tag: "urgent", tagType: "MESSAGE" } })).status).toBe(404);
  });

  it("Done when: 'a restricted user in team A never sees team B's resources in a tag map' (over HTTP, with core's team access)", async () => {
    const owner = await createUser(platform.http, admin, customerA, "OWNER");
    const team = async (name: string) => {
      const res = await platform.http.post("/api/team/", { token: owner.token, body: { name } });
      expect(res.status, res.text).toBe(200);
      return res.body.id as string;
    };
    const teamA = await team("Team A");
    const teamB = await team("Team B");
    const restricted = await createUser(platform.http, admin, customerA, "VIEWER", {});
    const assigned = await platform.http.post("/api/user/updateTeamAssignments", {
      token: owner.token,
      query: { email: restricted.email },
      body: { assignToTeams: [{ teamId: teamA, readOnly: false }], removeFromTeamIds: [] },
    });
    expect(assigned.status, assigned.text).toBeLessThan(300);
    const flagged = await platform.http.put("/api/user/", { token: admin, query: { email: restricted.email }, body: { restricted: true } });
    expect(flagged.status, flagged.text).toBe(200);

    await tagged(customerA, "CAMPAIGN", randomUUID(), ["lobby-a", "both"], 1, [teamA]);
    await tagged(customerA, "CAMPAIGN", randomUUID(), ["lobby-b", "both"], 1, [teamB]);
    await tagged(customerA, "CAMPAIGN", randomUUID(), ["both"], 1, []);
    await eventually(owner.token, (b) => b.campaignTags.both?.count === 3 && b.campaignTags["lobby-b"]?.count === 1);

    // accessResourcesWithoutTeam is on by default: team A's and unassigned resources.
    const seen = (await listTags(restricted.token, "campaignTags")).body.campaignTags;
    expect(seen.both).toEqual({ count: 2 });
    expect(seen["lobby-a"]).toEqual({ count: 1 });
    expect(seen["lobby-b"]).toBeUndefined();
    const suggested = await platform.http.get("/api/tag/suggest", { token: restricted.token, query: { keyword: "lobby", entity: "CAMPAIGN" } });
    expect(suggested.body).toEqual(["lobby-a"]);
  });

  it("a restricted user in team A never sees team B's resources in a tag map (visibility applied to the index's team ids)", async () => {
    const teamA = randomUUID();
    const teamB = randomUUID();
    await tagged(customerA, "DEVICE", randomUUID(), ["shared"], 1, [teamA]);
    await tagged(customerA, "DEVICE", randomUUID(), ["shared", "b-secret"], 1, [teamB]);
    await tagged(customerA, "DEVICE", randomUUID(), ["shared"], 1, []);
    await eventually(editorA.token, (b) => b.deviceTags.shared?.count === 3 && b.deviceTags["b-secret"]?.count === 1);

    const knex = platform.knexOf("core");
    const scope = tenantScope(customerA);
    const withoutTeam = await tagMaps(knex, scope, { kind: "teams", teamIds: [teamA], includeWithoutTeam: true }, ["DEVICE"]);
    expect(withoutTeam.get("DEVICE")!.get("shared")).toEqual({ count: 2 });
    expect(withoutTeam.get("DEVICE")!.has("b-secret")).toBe(false);
    const teamOnly = await tagMaps(knex, scope, { kind: "teams", teamIds: [teamA], includeWithoutTeam: false }, ["DEVICE"]);
    expect(teamOnly.get("DEVICE")!.get("shared")).toEqual({ count: 1 });
    const full = await tagMaps(knex, scope, { kind: "full" }, ["DEVICE"]);
    expect(full.get("DEVICE")!.get("b-secret")).toEqual({ count: 1 });
  });
});

describe("tags of several tenants at once (ADMIN without customerId)", () => {
  // "Tags are per customer": listed over all tenants, one name's counts add up, but a comment that
  // differs between tenants belongs to none of them (it paired one tenant's count with another's comment).
  it("shows a comment only when every tenant defining the tag gave the same one", async () => {
    const [same, different] = [`same-${randomUUID().slice(0, 8)}`, `diff-${randomUUID().slice(0, 8)}`];
    for (const [token, comment] of [[editorA.token, "Shared words"], [editorB.token, "Shared words"]] as const) expect((await createTag(token, "FILE", same, comment)).status).toBe(200);
    for (const [token, comment] of [[editorA.token, "A's meaning"], [editorB.token, "B's meaning"]] as const) expect((await createTag(token, "FILE", different, comment)).status).toBe(200);
    const all = await listTags(admin, "fileTags");
    expect(all.status, all.text).toBe(200);
    expect(all.body.fileTags[same]).toEqual({ count: 0, comment: "Shared words" });
    expect(all.body.fileTags[different]).toEqual({ count: 0 });
    // One tenant's own list keeps its comment.
    expect((await listTags(editorB.token, "fileTags")).body.fileTags[different]).toEqual({ count: 0, comment: "B's meaning" });
  });
});
