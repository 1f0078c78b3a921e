// Path variables inside a segment: `/api/team/{resourceType}Assignments` and
// `/api/team/update{ResourceType}Assignments` (document 2 "Teams, tags, users, quick filters").
import { describe, expect, it } from "vitest";
import { createRouterTransport } from "@connectrpc/connect";
import { allFiles } from "@signage/contracts";
import { TeamService, ListResourceTeamAssignmentsRequestSchema, ListTeamResourceAssignmentsRequestSchema } from "@signage/contracts/signage/core/v1/team_pb";
import { GetMyAppFileRequestSchema } from "@signage/contracts/signage/media/v1/custom_app_pb";
import { createGateway, upstreamsByPackage } from "../src/index.js";
import { parsePathTemplate } from "../src/routes/path-template.js";
import { bearerFetch as fetch } from "./support/bearer-fetch.js";

const silent = { info() {}, warn() {}, error() {} };

describe("path templates", () => {
  it("keeps whole-segment variables as plain router parameters", () => {
    expect(parsePathTemplate("/api/team/{resource_type}/{resource_id}/assignments", ListResourceTeamAssignmentsRequestSchema).routerPath).toBe(
      "/api/team/:resourceType/:resourceId/assignments",
    );
  });

  it("`{path=**}` binds the rest of the path, slashes included (a private app's files: `css/app.css`), and only at the end", () => {
    const t = parsePathTemplate("/api/customApp/files/{token}/{path=**}", GetMyAppFileRequestSchema);
    expect(t.routerPath).toBe("/api/customApp/files/:token/*path");
    expect(t.variables.map((v) => v.param)).toEqual(["token", "path"]);
    expect(() => parsePathTemplate("/api/customApp/files/{path=**}/{token}", GetMyAppFileRequestSchema)).toThrow(/must end the path/);
  });

  it("quotes a variable followed by literal text in the same segment", () => {
    const t = parsePathTemplate("/api/team/{resource_type}Assignments", ListTeamResourceAssignmentsRequestSchema);
    expect(t.routerPath).toBe('/api/team/:"resourceType"Assignments');
    expect(parsePathTemplate("/api/team/update{resource_type}Assignments", ListTeamResourceAssignmentsRequestSchema).routerPath).toBe(
      '/api/team/update:"resourceType"Assignments',
    );
  });

  it("routes `GET /api/team/fileFolderAssignments` and `PUT /api/team/updateFileAssignments` with the type bound", async () => {
    const seen: string[] = [];
    const transport = createRouterTransport((router) =>
      router.service(TeamService, {
        listTeamResourceAssignments: (req) => {
          seen.push(`list:${req.resourceType}:${req.teamId}`);
          return { assignments: [{ id: "r1", readOnly: true }] };
        },
        updateTeamResourceAssignments: (req) => {
          seen.push(`update:${req.resourceType}:${req.update?.resourcesToAdd.map((r) => r.id).join(",")}`);
          return {};
        },
      }),
    );
    const upstreams = upstreamsByPackage({ core: transport, media: transport, integration: transport, reporting: transport, licensing: transport });
    const { app } = createGateway({ files: allFiles, upstreams, logger: silent });
    const server = app.listen(0);
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const list = await fetch(`${base}/api/team/fileFolderAssignments?teamId=t1`);
      expect(await list.json()).toEqual([{ id: "r1", readOnly: true }]);
      const put = await fetch(`${base}/api/team/updateFileAssignments?teamId=t1`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ resourcesToAdd: [{ id: "f1", readOnly: false }], resourceIdsToRemove: [] }),
      });
      expect(put.status).toBe(204);
      expect(seen).toEqual(["list:fileFolder:t1", "update:File:f1"]);
      const missing = await fetch(`${base}/api/team/fileFolderAssignmentsX`);
      expect([404, 405]).toContain(missing.status); // the literal suffix must match
      expect(seen).toHaveLength(2);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
