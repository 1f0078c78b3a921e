// The id parameter of the two media updateTeamAssignments routes, over HTTP
// through the gateway: missing or blank is 400 request.error.missingParameter
// (as rename and replace answer), not a 404 for a file named ''.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLibrary, type Library, type Tenant } from "./files-support.js";

let lib: Library;
let t: Tenant;

beforeAll(async () => {
  lib = await startLibrary("media_team_params");
  t = await lib.tenant();
}, 60_000);
afterAll(() => lib?.close());

describe("'Modify with POST `/api/{resource}/updateTeamAssignments?{idParam}=<id>` (OWNER)': the id parameter is required", () => {
  it.each([
    ["/api/file/updateTeamAssignments", "fileId"],
    ["/api/fileFolder/updateTeamAssignments", "fileFolderId"],
  ])("%s without %s, or with a blank one, is 400 request.error.missingParameter naming it", async (path, parameter) => {
    for (const query of [{}, { [parameter]: "" }, { [parameter]: "  " }]) {
      const res = await lib.http.post(path, { token: t.owner.token, query, body: { assignToTeams: [], removeFromTeamIds: [] } });
      expect(res.body, JSON.stringify(query)).toEqual({
        status: 400,
        error: "Bad Request",
        key: "request.error.missingParameter",
        message: `Query parameter '${parameter}' is required`,
        details: { parameter },
      });
    }
  });

  it("with the id the call still works", async () => {
    const file = await lib.file(t);
    const res = await lib.http.post("/api/file/updateTeamAssignments", { token: t.owner.token, query: { fileId: file.id }, body: { assignToTeams: [], removeFromTeamIds: [] } });
    expect(res.status, res.text).toBeLessThan(300);
  });
});
