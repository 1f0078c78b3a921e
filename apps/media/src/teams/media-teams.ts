// Media's team pieces: assignments of files and file folders (the common
// TeamAssignmentService core calls, and the two documented
// `updateTeamAssignments` routes), the team port files and folders call
// (create / delete / write checks / list visibility), and the replica of core's
// team facts with the team.deleted cleanup. Every change of a file's teams
// re-announces its tags (with the new team ids) for core's per-team tag map.
import type { ConnectRouter } from "@connectrpc/connect";
import type { Knex } from "knex";
import type { EventBus, Subscription } from "@signage/events";
import { MediaTeamService } from "@signage/contracts/signage/media/v1/media_teams_pb";
import { TeamAssignmentService } from "@signage/contracts/signage/teams/v1/team_assignments_pb";
import { createAccessFactsCache, type CurrentUserCheck, type TeamFacts } from "@signage/auth";
import { cachedReplicaUsers, cachedTeamFacts, createTeamAccessResolver, replicaCurrentUserCheck, replicaUsers, type ReplicatedUser, replicaTeamDirectory, replicaTeamFacts, subscribeTeamReplica, teamAssignmentService, teamResourceTables, updateResourceTeams, type OutboxPort, type Peers, type TeamAssignmentDeps, type TeamResourceTable, requireParameter } from "@signage/runtime";
import { announceFileTeamChange } from "../files/file-tag-events.js";
import { mediaTeamHooks, type MediaTeamHooksWithAccess } from "./media-team-hooks.js";

export const MEDIA_TEAM_TABLES = teamResourceTables([
  { resourceType: "file", table: "file" },
  { resourceType: "fileFolder", table: "file_folder" },
]);

export interface MediaTeams {
  register(router: ConnectRouter): void;
  /** The port files and folders call: `fileDepsOf(ctx, { teams: mediaTeams.hooks })`. */
  hooks: MediaTeamHooksWithAccess;
  /** Each user call checked against the replica's user: deleted, or changed after the token was issued. */
  currentUser: CurrentUserCheck;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function mediaTeams(input: { knex: Knex; bus: EventBus; peers: Peers; outbox: OutboxPort; teamAccessCacheMs: number }): MediaTeams {
  const { knex } = input;
  let subscription: Subscription | undefined;
  // Every file and folder list asks for the caller's team facts; this replica evicts on each team event it applies.
  const factsCache = createAccessFactsCache<TeamFacts | undefined>({ ttlMs: input.teamAccessCacheMs });
  const facts = cachedTeamFacts(replicaTeamFacts(knex), factsCache);
  const usersCache = createAccessFactsCache<ReplicatedUser | undefined>({ ttlMs: input.teamAccessCacheMs });
  const onApplied = (customerId: number) => {
    factsCache.changed(customerId);
    usersCache.changed(customerId);
  };
  // In the transaction of the assignment change (folders carry no tags): a newer update_date, so
  // core's tag index never takes an older team state for this one (file-tag-events.ts).
  const onWritten = (trx: Knex.Transaction, table: TeamResourceTable, ids: readonly string[]) =>
    table.resourceType === "file" ? announceFileTeamChange(trx, input.outbox, ids) : Promise.resolve();
  const deps: TeamAssignmentDeps = { knex, tables: MEDIA_TEAM_TABLES, teams: replicaTeamDirectory(knex, input.peers), access: createTeamAccessResolver(facts), onWritten };

  return {
    register(router) {
      router.service(TeamAssignmentService, teamAssignmentService(deps));
      router.service(MediaTeamService, {
        updateFileTeamAssignments: (req, ctx) => updateResourceTeams(ctx, deps, "file", requireParameter(req.fileId, "fileId"), req.update),
        updateFileFolderTeamAssignments: (req, ctx) => updateResourceTeams(ctx, deps, "fileFolder", requireParameter(req.fileFolderId, "fileFolderId"), req.update),
      });
    },
    hooks: mediaTeamHooks(MEDIA_TEAM_TABLES, facts),
    currentUser: replicaCurrentUserCheck(cachedReplicaUsers(replicaUsers(knex), usersCache)),
    async start() {
      subscription = await subscribeTeamReplica(input.bus, knex, "media", { tables: MEDIA_TEAM_TABLES, onWritten, onApplied });
    },
    async stop() {
      await subscription?.stop();
      subscription = undefined;
    },
  };
}
