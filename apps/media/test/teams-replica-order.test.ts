// Media's replica of core's team facts must end where core is, whatever order the events arrive
// in: a failed event is retried after later ones went through ("redelivery on failure"), and
// must then not undo them. Every event core's outbox relays carries its `seq`; the replica keeps
// the highest applied per thing (libs/runtime replica-versions.ts). Here the events are published
// as core's relay would, with a redelivered older one arriving last.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { TeamEvent } from "@signage/runtime";
import { createCustomer, eventually, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";

let platform: TestPlatform;
let customerId: number;
const media = () => platform.knexOf("media");

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "media_teams_order" });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerId = (await createCustomer(platform.http, admin)).id;
}, 60_000);
afterAll(() => platform?.close(), 30_000);

// Far above what core's own outbox reaches in this test.
let nextSeq = 1_000_000;
const seq = () => nextSeq++;

/** Publishes as core's relay does (with `seq`) and waits until media's team consumer has handled it. */
async function deliver(type: string, data: Record<string, unknown>, at: number, forCustomer = customerId): Promise<void> {
  const id = randomUUID();
  await platform.bus.publish({ id, type, customerId: forCustomer, seq: at, data });
  await eventually(() => media()("event_inbox").where({ consumer: "media.teams", event_id: id }).first(), (row) => row !== undefined, `${type} handled`);
}

describe("team replica: a redelivered older event never undoes a newer one", () => {
  it("a team.updated retried after the team's deletion does not bring the team back", async () => {
    const team = randomUUID();
    const [created, updated, deleted] = [seq(), seq(), seq()];
    await deliver(TeamEvent.created, { id: team, customerId, name: "Short-lived" }, created);
    await deliver(TeamEvent.deleted, { id: team, customerId, name: "Short-lived" }, deleted);
    await deliver(TeamEvent.updated, { id: team, customerId, name: "Renamed before deletion" }, updated);
    expect(await media()("team").where({ id: team })).toEqual([]);
  });

  it("an older user.teams.changed does not put back memberships a newer one took away; a newer one still applies", async () => {
    const [userId, a, b] = [randomUUID(), randomUUID(), randomUUID()];
    const [older, newer, newest] = [seq(), seq(), seq()];
    await deliver(TeamEvent.userTeamsChanged, { userId, customerId, teams: [{ teamId: a, readOnly: false }] }, newer);
    await deliver(TeamEvent.userTeamsChanged, { userId, customerId, teams: [{ teamId: a, readOnly: false }, { teamId: b, readOnly: true }] }, older);
    expect(await media()("team_membership").where({ user_id: userId }).select("team_id")).toEqual([{ team_id: a }]);
    await deliver(TeamEvent.userTeamsChanged, { userId, customerId, teams: [{ teamId: b, readOnly: true }] }, newest);
    expect(await media()("team_membership").where({ user_id: userId }).select("team_id", "read_only")).toEqual([{ team_id: b, read_only: true }]);
  });

  it("a deleted user's older membership change does not bring memberships back; another kind of change of the user is not blocked", async () => {
    const [userId, team] = [randomUUID(), randomUUID()];
    const [teamsChange, accessChange, deletion] = [seq(), seq(), seq()];
    // Older but about the user's teams, not its access: still applied.
    await deliver(TeamEvent.userAccessChanged, { userId, customerId, restricted: true, deleted: false }, accessChange);
    await deliver(TeamEvent.userTeamsChanged, { userId, customerId, teams: [{ teamId: team, readOnly: false }] }, teamsChange);
    expect(await media()("team_membership").where({ user_id: userId }).select("team_id")).toEqual([{ team_id: team }]);
    await deliver(TeamEvent.userAccessChanged, { userId, customerId, restricted: true, deleted: true }, deletion);
    await deliver(TeamEvent.userTeamsChanged, { userId, customerId, teams: [{ teamId: team, readOnly: false }] }, teamsChange - 1);
    expect(await media()("team_membership").where({ user_id: userId })).toEqual([]);
    // The user's row stays as a tombstone, so its tokens stay refused (replica-current-user.ts).
    expect(await media()("team_user").where({ user_id: userId }).select("deleted")).toEqual([{ deleted: true }]);
  });

  it("an older user.teams.changed retried after a team's deletion does not bring back a membership of that team", async () => {
    const [userId, kept, deletedTeam] = [randomUUID(), randomUUID(), randomUUID()];
    const [keptCreated, deletedCreated, teamsChange, deletion] = [seq(), seq(), seq(), seq()];
    await deliver(TeamEvent.created, { id: kept, customerId, name: "Kept" }, keptCreated);
    await deliver(TeamEvent.created, { id: deletedTeam, customerId, name: "Deleted" }, deletedCreated);
    await deliver(TeamEvent.deleted, { id: deletedTeam, customerId, name: "Deleted" }, deletion);
    await deliver(TeamEvent.userTeamsChanged, { userId, customerId, teams: [{ teamId: kept, readOnly: false }, { teamId: deletedTeam, readOnly: false }] }, teamsChange);
    expect(await media()("team_membership").where({ user_id: userId }).select("team_id")).toEqual([{ team_id: kept }]);
  });

  it("after customer.deleted, an older event of that customer creates nothing", async () => {
    const gone = 987_000_001;
    const team = randomUUID();
    const [teamCreated, customerDeleted] = [seq(), seq()];
    await platform.bus.publish({ type: "customer.deleted", customerId: gone, seq: customerDeleted, data: { id: gone } });
    await eventually(() => media()("team_replica_version").where({ key: `customer:${gone}` }).first(), (row) => row !== undefined, "customer tombstone");
    await deliver(TeamEvent.created, { id: team, customerId: gone, name: "Of a deleted customer" }, teamCreated, gone);
    expect(await media()("team").where({ id: team })).toEqual([]);
  });
});
