// Media's replica of core's team facts and the team.deleted cleanup
// ("team deletion removes its assignments in every service"), fed by events on
// the platform bus exactly as core's outbox relay publishes them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { TeamEvent } from "@signage/runtime";
import { createCustomer, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";

let platform: TestPlatform;
let customerId: number;

async function eventually(probe: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 150; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out: ${what}`);
}

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "media_teams" });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerId = (await createCustomer(platform.http, admin)).id;
}, 60_000);
afterAll(() => platform?.close(), 30_000);

describe("media team replica", () => {
  it("keeps teams, users' restricted flag, memberships (full set) and settings; a redelivered event applies once", async () => {
    const media = platform.knexOf("media");
    const [team, userId] = [randomUUID(), randomUUID()];
    await platform.bus.publish({ type: TeamEvent.created, customerId, data: { id: team, customerId, name: "Replica team" } });
    await platform.bus.publish({ type: TeamEvent.userAccessChanged, customerId, data: { userId, customerId, restricted: true, deleted: false } });
    const membership = { id: randomUUID(), type: TeamEvent.userTeamsChanged, customerId, data: { userId, customerId, teams: [{ teamId: team, readOnly: true }] } };
    await platform.bus.publish(membership);
    await platform.bus.publish(membership);
    await platform.bus.publish({
      type: TeamEvent.settingsChanged,
      customerId,
      data: {
        customerId,
        settings: {
          userFullAccessIfNotInTeam: false,
          accessResourcesWithoutTeam: false,
          isDeviceAndGroupCreationEnabledInRootForTeamUsers: true,
          isContentAndGroupCreationEnabledInRootForTeamUsers: true,
          isFileAndFolderCreationEnabledInRootForTeamUsers: false,
        },
      },
    });
    await eventually(async () => !!(await media("team_settings").where({ customer_id: customerId }).first()), "settings replicated");
    expect(await media("team").where({ id: team }).first()).toMatchObject({ name: "Replica team" });
    expect(await media("team_user").where({ user_id: userId }).first()).toMatchObject({ restricted: true });
    expect(await media("team_membership").where({ user_id: userId }).select("team_id", "read_only")).toEqual([{ team_id: team, read_only: true }]);
    expect(await media("team_settings").where({ customer_id: customerId }).first()).toMatchObject({ access_resources_without_team: false, file_creation_in_root_for_team_users: false });

    await platform.bus.publish({ type: TeamEvent.userAccessChanged, customerId, data: { userId, customerId, restricted: true, deleted: true } });
    // A tombstone: the deleted user's tokens stay refused on media (replica-current-user.ts).
    await eventually(async () => (await media("team_user").where({ user_id: userId }).first())?.deleted === true, "deleted user marked");
    expect(await media("team_membership").where({ user_id: userId })).toEqual([]);
  }, 30_000);

  it("'team.deleted' removes the team's assignments and its id from every team_ids", async () => {
    const media = platform.knexOf("media");
    const [keep, gone] = [randomUUID(), randomUUID()];
    for (const id of [keep, gone]) await platform.bus.publish({ type: TeamEvent.created, customerId, data: { id, customerId, name: id } });
    await eventually(async () => (await media("team").whereIn("id", [keep, gone])).length === 2, "teams replicated");
    const root = await media("file_folder").where({ customer_id: customerId }).whereNull("parent_id").first();
    await media("team_assignment").insert([
      { resource_type: "fileFolder", resource_id: root.id, team_id: keep, read_only: false, customer_id: customerId },
      { resource_type: "fileFolder", resource_id: root.id, team_id: gone, read_only: true, customer_id: customerId },
    ]);
    await media("file_folder").where({ id: root.id }).update({ team_ids: [keep, gone].sort() });

    await platform.bus.publish({ type: TeamEvent.deleted, customerId, data: { id: gone, customerId, name: null } });
    await eventually(async () => !(await media("team").where({ id: gone }).first()), "team deleted");
    expect(await media("team_assignment").where({ team_id: gone })).toEqual([]);
    expect((await media("file_folder").where({ id: root.id }).first()).team_ids).toEqual([keep]);
    expect(await media("team_assignment").where({ team_id: keep })).toHaveLength(1);
  }, 30_000);
});
