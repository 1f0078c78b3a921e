// Id-taking list parameters of the library lists, over HTTP through the gateway.
// Document 2 "Paging, projection, common list parameters": "Also accepted by many
// lists: `quickFilterId` (saved filter, combined with search by AND),
// `selectTeamIds` (comma separated), `includeResourcesWithoutTeam` (bool, default
// false)". Team ids are UUIDs, so a value that is none names no team: bad input,
// which gets "a clear 4xx with the error body" (400 selectTeamIds.error.invalid),
// never an empty page that reads as "nothing in this team".
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;
let teamId: string;
let inTeam: string;

const LISTS = ["/api/v2/file", "/api/v2/fileFolder"] as const;

beforeAll(async () => {
  lib = await startLibrary("media_select_team_ids");
  t = await lib.tenant();
  const team = await lib.http.post("/api/team/", { token: t.owner.token, body: { name: `T-${randomUUID()}` } });
  expect(team.status, team.text).toBe(200);
  teamId = team.body.id;
  inTeam = (await lib.file(t, { name: "in-team.png" })).id;
  await lib.file(t, { name: "no-team.png" });
  const assigned = await lib.http.post("/api/file/updateTeamAssignments", { token: t.owner.token, query: { fileId: inTeam }, body: { assignToTeams: [{ teamId, readOnly: false }] } });
  expect(assigned.status, assigned.text).toBeLessThan(300);
}, 60_000);
afterAll(() => lib?.close());

const get = (path: string, query: Record<string, string>) => lib.http.get(path, { token: t.viewer.token, query });

describe("'`selectTeamIds` (comma separated)': team ids, each one a team id", () => {
  it("a value that is no team id (nope, a team name, a teamId:readOnly pair, one bad item among good ones) is 400 selectTeamIds.error.invalid naming it, on files and folders, with or without includeResourcesWithoutTeam", async () => {
    const cases: Array<[string, string]> = [
      ["nope", "'nope' is not a team id"],
      ["Marketing team", "'Marketing team' is not a team id"],
      [`${teamId}:true`, "teamId:readOnly"],
      [`${teamId},nope`, "'nope' is not a team id"],
    ];
    for (const path of LISTS) {
      for (const [value, says] of cases) {
        for (const extra of [{}, { includeResourcesWithoutTeam: "true" }] as Record<string, string>[]) {
          const res = await get(path, { selectTeamIds: value, ...extra });
          expect(res.status, `${path}?selectTeamIds=${value} ${JSON.stringify(extra)}: ${res.text}`).toBe(400);
          expect(res.body).toMatchObject({
            status: 400,
            error: "Bad Request",
            key: "selectTeamIds.error.invalid",
            message: expect.stringContaining(says),
            details: { parameter: "selectTeamIds", value },
          });
        }
      }
    }
  });

  it("well-formed ids still filter: the team's files; an id of no team matches nothing (200, empty); blanks between commas are ignored", async () => {
    const names = async (query: Record<string, string>) => {
      const res = await get("/api/v2/file", { ...query, select: "name", sort: "name,asc" });
      expect(res.status, res.text).toBe(200);
      return (res.body.content as { name: string }[]).map((f) => f.name);
    };
    expect(await names({ selectTeamIds: teamId })).toEqual(["in-team.png"]);
    expect(await names({ selectTeamIds: ` ${teamId.toUpperCase()} , ` })).toEqual(["in-team.png"]);
    expect(await names({ selectTeamIds: teamId, includeResourcesWithoutTeam: "true" })).toEqual(["in-team.png", "no-team.png"]);
    expect(await names({ selectTeamIds: randomUUID() })).toEqual([]);
    expect(await names({ selectTeamIds: "" })).toEqual(["in-team.png", "no-team.png"]);
    const folders = await get("/api/v2/fileFolder", { selectTeamIds: randomUUID() });
    expect(folders.status, folders.text).toBe(200);
    expect(folders.body.content).toEqual([]);
  });
});

describe("the other id-taking list parameters were already refused when malformed (no empty page)", () => {
  it("customerId=nope is 400 request.error.invalid; quickFilterId=nope is 400 quickFilter.error.notFound (files, folders, summary)", async () => {
    for (const path of [...LISTS, "/api/v2/file/view/summary"]) {
      const customer = await get(path, { customerId: "nope" });
      expect(customer.status, `${path}: ${customer.text}`).toBe(400);
      expect(customer.body).toMatchObject({ status: 400, key: "request.error.invalid" });
      const quick = await get(path, { quickFilterId: "nope" });
      expect(quick.status, `${path}: ${quick.text}`).toBe(400);
      expect(quick.body).toMatchObject({ status: 400, key: "quickFilter.error.notFound", details: { quickFilterId: "nope" } });
    }
  });
});
