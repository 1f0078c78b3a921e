// The generic team assignment route `POST /api/{resource}/updateTeamAssignments?{idParam}=<id>`
// takes the id parameter each document names. Writes refuse query parameters their operation
// does not take (400 request.error.unknownParameter), so an id parameter missing from the
// contract was refused; one the contract took but the handler did not read answered "required".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UpdateResourceTeamAssignmentsRequestSchema } from "@signage/contracts/signage/core/v1/team_pb";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { coreModule } from "../src/module.js";
import { idParamOf, TEAM_RESOURCE_TYPES } from "../src/teams/resource-types.js";
import { errorBody } from "./error-body.js";

let platform: TestPlatform;
let owner: TenantUser;
const body = { assignToTeams: [], removeFromTeamIds: [] };

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_team_id_params_test" });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  owner = await createUser(platform.http, admin, (await createCustomer(platform.http, admin)).id, "OWNER");
});
afterAll(() => platform?.close());

describe("id parameters of POST /api/{resource}/updateTeamAssignments", () => {
  // Document 3 "Advertisers": "POST `/api/adv/updateTeamAssignments?advertiserId=<id>`" (that path
  // is licensing's own row, 501 until built); the generic route names the type `advertiser`.
  it("?advertiserId=<id> is taken: advertisers are not team-enabled yet (501), not 400 unknownParameter", async () => {
    const res = await platform.http.post("/api/advertiser/updateTeamAssignments", { token: owner.token, query: { advertiserId: "a1" }, body });
    expect([res.status, res.body]).toEqual([501, errorBody(501, "team.error.resourceTypeNotEnabled")]);
    expect(res.body.details).toEqual({ resourceType: "advertiser" });
  });

  // Document 3 "Webhook actions": "Team assignments | Method and path: not shown. (OWNER, (C); query actionId, body assignment)".
  it("?actionId=<id> is read for webhook actions (501 not team-enabled yet), not 400 'webhookEventActionId is required'", async () => {
    const res = await platform.http.post("/api/webhookEventAction/updateTeamAssignments", { token: owner.token, query: { actionId: "w1" }, body });
    expect([res.status, res.body]).toEqual([501, errorBody(501, "team.error.resourceTypeNotEnabled")]);
    const without = await platform.http.post("/api/webhookEventAction/updateTeamAssignments", { token: owner.token, body });
    expect([without.status, without.body.message]).toEqual([400, "Query parameter 'actionId' (or 'id') is required"]);
  });

  // Seed "Teams on resources": "Modify with POST `/api/{resource}/updateTeamAssignments?{idParam}=<id>`
  // ...; for users the query parameter is `email`" (users, files and folders have routes of their own).
  it("the id parameter the handler asks for is one the route takes, for every type it serves", () => {
    const taken = new Set(UpdateResourceTeamAssignmentsRequestSchema.fields.map((f) => f.jsonName));
    const ownRoutes = new Set(["user", "file", "fileFolder"]);
    const missing = TEAM_RESOURCE_TYPES.filter((t) => !ownRoutes.has(t) && !taken.has(idParamOf(t)));
    expect(missing).toEqual([]);
  });
});
