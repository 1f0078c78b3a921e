// Reads and writes of a service's `team_assignment` rows. Every write also
// refreshes the resource's `team_ids` column in the same transaction, so the
// visibility test (team_ids) and the relation (`teamAssignments`) never differ.
import type { Knex } from "knex";
import { applyScope, type ResourceTeamAssignment, type Scope } from "@signage/auth";
import type { TeamResourceTable } from "./team-resource-tables.js";

type Db = Knex | Knex.Transaction;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string | null | undefined): value is string => typeof value === "string" && UUID.test(value);

/**
 * `column = any($1::uuid[])` for `whereRaw`: one bind parameter however many ids (a direct RPC
 * caller can send more than the 65535 parameters an IN list may have). Non-UUIDs match nothing.
 */
export const matchesAnyUuid = (column: string, ids: readonly string[]): [string, [string, string[]]] => ["?? = any(?::uuid[])", [column, ids.filter(isUuid)]];

export interface ScopedResource {
  id: string;
  customerId: number;
}

/** The resource when it exists in the caller's tenant scope. */
export async function findResourceInScope(db: Db, table: TeamResourceTable, id: string, scope: Scope): Promise<ScopedResource | undefined> {
  if (!isUuid(id)) return undefined;
  const idColumn = table.idColumn ?? "id";
  const tenantColumn = table.tenantColumn ?? "customer_id";
  const qb = db(table.table).where(idColumn, id).first({ id: idColumn, customerId: tenantColumn });
  applyScope(qb, scope, tenantColumn);
  const row = await qb;
  return row ? { id: row.id, customerId: Number(row.customerId) } : undefined;
}

/** Resources of the given ids within one tenant (ids not found are left out). */
export async function findResourcesOfTenant(db: Db, table: TeamResourceTable, ids: readonly string[], customerId: number, options: { lock?: boolean } = {}): Promise<string[]> {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  const idColumn = table.idColumn ?? "id";
  const query = db(table.table)
    .whereRaw(...matchesAnyUuid(idColumn, valid))
    .where(table.tenantColumn ?? "customer_id", customerId)
    .select({ id: idColumn });
  // Locked in id order (as refreshTeamIds locks them): held until the transaction ends.
  if (options.lock) query.orderBy(idColumn).forUpdate();
  const rows = await query;
  return rows.map((r: { id: string }) => r.id);
}

export async function assignmentsOfResource(db: Db, resourceId: string): Promise<ResourceTeamAssignment[]> {
  const rows = await db("team_assignment").where({ resource_id: resourceId }).orderBy("team_id").select("team_id", "read_only");
  return rows.map((r: { team_id: string; read_only: boolean }) => ({ teamId: r.team_id, readOnly: r.read_only }));
}

export async function assignmentsOfResources(db: Db, resourceIds: readonly string[]): Promise<Map<string, ResourceTeamAssignment[]>> {
  // Keyed by the ids as given; rows carry the stored (lowercase) id: a UUID in capitals names the same
  // resource, and must not read as one without teams (a write check would pass it).
  const result = new Map<string, ResourceTeamAssignment[]>();
  const byStoredId = new Map<string, ResourceTeamAssignment[]>();
  for (const id of resourceIds) {
    const stored = id.toLowerCase();
    const list = byStoredId.get(stored) ?? [];
    byStoredId.set(stored, list);
    result.set(id, list);
  }
  if (resourceIds.length === 0) return result;
  const rows = await db("team_assignment").whereRaw(...matchesAnyUuid("resource_id", resourceIds)).select("resource_id", "team_id", "read_only");
  for (const r of rows as { resource_id: string; team_id: string; read_only: boolean }[]) byStoredId.get(r.resource_id)?.push({ teamId: r.team_id, readOnly: r.read_only });
  return result;
}

export async function resourcesOfTeam(db: Db, resourceType: string, teamId: string): Promise<{ id: string; readOnly: boolean }[]> {
  const rows = await db("team_assignment").where({ team_id: teamId, resource_type: resourceType }).orderBy("resource_id").select("resource_id", "read_only");
  return rows.map((r: { resource_id: string; read_only: boolean }) => ({ id: r.resource_id, readOnly: r.read_only }));
}

/** Counts per (team, resource type) for many teams in one query. */
/**
 * `visibleThrough`: a team-restricted caller's teams. Its own teams count whole (a member sees every
 * resource of its team); another team counts only the resources one of the caller's teams also holds,
 * as listTeamResources lists them. Undefined: full access, everything counts.
 */
export async function countsOfTeams(db: Db, customerId: number, teamIds: readonly string[], visibleThrough?: readonly string[]): Promise<{ teamId: string; resourceType: string; count: number }[]> {
  const valid = teamIds.filter(isUuid);
  if (valid.length === 0) return [];
  const query = db("team_assignment as a").whereRaw(...matchesAnyUuid("a.team_id", valid)).where({ "a.customer_id": customerId });
  if (visibleThrough) {
    const mine = visibleThrough.filter(isUuid);
    query.where((q) =>
      q.whereRaw(...matchesAnyUuid("a.team_id", mine)).orWhereExists((m) => m.from("team_assignment as m").whereRaw("m.resource_id = a.resource_id").whereRaw(...matchesAnyUuid("m.team_id", mine))),
    );
  }
  const rows = await query.groupBy("a.team_id", "a.resource_type").select("a.team_id", "a.resource_type").count({ n: "*" });
  return rows.map((r: any) => ({ teamId: r.team_id, resourceType: r.resource_type, count: Number(r.n) }));
}

/** Writes `team_ids` of the given rows from their assignment rows. */
export async function refreshTeamIds(trx: Db, table: TeamResourceTable, resourceIds: readonly string[]): Promise<void> {
  if (resourceIds.length === 0) return;
  const idColumn = table.idColumn ?? "id";
  // The rows first, in a statement of their own: an update that waited for a row reads the rows a
  // write committed meanwhile with its own, earlier snapshot, so of two writes adding teams to one
  // resource at once the second left out the first's team. The update below reads after the wait.
  await trx.raw("select 1 from ?? where ?? = any(?::uuid[]) order by ?? for update", [table.table, idColumn, [...resourceIds], idColumn]);
  await trx.raw(
    `update ?? as r set team_ids = coalesce((select array_agg(a.team_id order by a.team_id) from team_assignment a where a.resource_id = r.??), '{}')
     where r.?? = any(?::uuid[])`,
    [table.table, idColumn, idColumn, [...resourceIds]],
  );
}

export interface AssignmentWrite {
  resourceId: string;
  teamId: string;
  readOnly: boolean;
}

/** Upserts (readOnly replaced) and deletes assignments of one type, then refreshes team_ids. */
export async function writeAssignments(
  trx: Knex.Transaction,
  table: TeamResourceTable,
  customerId: number,
  upserts: readonly AssignmentWrite[],
  deletes: readonly { resourceId: string; teamId: string }[],
): Promise<void> {
  for (const d of deletes) await trx("team_assignment").where({ resource_id: d.resourceId, team_id: d.teamId }).delete();
  const written = await teamsStillThere(trx, upserts);
  if (written.length > 0) {
    await trx("team_assignment")
      .insert(written.map((u) => ({ resource_type: table.resourceType, resource_id: u.resourceId, team_id: u.teamId, read_only: u.readOnly, customer_id: customerId })))
      .onConflict(["resource_id", "team_id"])
      .merge(["read_only"]);
  }
  await refreshTeamIds(trx, table, [...new Set([...upserts.map((u) => u.resourceId), ...deletes.map((d) => d.resourceId)])]);
}

/**
 * The upserts whose team still exists, its row held (KEY SHARE) until the write commits. A team's
 * deletion (removeTeamEverywhere) takes the row first: it waits for this write and then removes
 * what it wrote, or this write waits for it and drops the gone team's rows, as if written just
 * before the deletion. Without the lock, an assignment written while the deletion ran (neither
 * seeing the other's rows) outlived the team (media's replica has no foreign key to do it).
 */
async function teamsStillThere(trx: Knex.Transaction, upserts: readonly AssignmentWrite[]): Promise<readonly AssignmentWrite[]> {
  if (upserts.length === 0) return upserts;
  const teamIds = [...new Set(upserts.map((u) => u.teamId.toLowerCase()))].sort();
  const rows: { id: string }[] = await trx("team").whereRaw(...matchesAnyUuid("id", teamIds)).orderBy("id").forKeyShare().select("id");
  const present = new Set(rows.map((r) => r.id));
  return upserts.filter((u) => present.has(u.teamId.toLowerCase()));
}

/**
 * For the owning service's create path: `teamIds` of the request, plus the
 * parent's assignments when `inheritParentTeams` (the request's own entries win).
 * Call inside the transaction that inserted the row; teams must be checked first.
 */
export async function assignOnCreate(
  trx: Knex.Transaction,
  table: TeamResourceTable,
  input: { resourceId: string; customerId: number; teams: readonly ResourceTeamAssignment[]; inheritFromResourceId?: string | null },
): Promise<void> {
  const teams = await assignmentsOnCreate(trx, input.teams, input.inheritFromResourceId);
  await writeAssignments(trx, table, input.customerId, teams.map((a) => ({ resourceId: input.resourceId, ...a })), []);
}

/** The teams a new resource will have: the parent's when inherited, the request's own entries winning (what assignOnCreate writes). */
export async function assignmentsOnCreate(db: Db, teams: readonly ResourceTeamAssignment[], inheritFromResourceId?: string | null): Promise<ResourceTeamAssignment[]> {
  const byTeam = new Map<string, boolean>();
  if (inheritFromResourceId) for (const a of await assignmentsOfResource(db, inheritFromResourceId)) byTeam.set(a.teamId, a.readOnly);
  for (const a of teams) byTeam.set(a.teamId, a.readOnly);
  return [...byTeam].map(([teamId, readOnly]) => ({ teamId, readOnly }));
}

/** For the owning service's delete path (the rows themselves are going away). */
export async function deleteResourceAssignments(trx: Db, resourceIds: readonly string[]): Promise<void> {
  if (resourceIds.length > 0) await trx("team_assignment").whereRaw(...matchesAnyUuid("resource_id", resourceIds)).delete();
}

/**
 * `team.deleted`: the team's assignments go, and it leaves every team_ids array.
 * Returns the resources whose team_ids changed, per table (for their owners' events).
 */
export async function removeTeamEverywhere(trx: Knex.Transaction, tables: Iterable<TeamResourceTable>, teamId: string): Promise<{ table: TeamResourceTable; resourceIds: string[] }[]> {
  // First the team's row: an assignment write under way holds it (writeAssignments) and commits
  // before the statements below read, so what it wrote goes too; a later one finds the team gone.
  await trx("team").whereRaw(...matchesAnyUuid("id", [teamId])).forUpdate().select("id");
  await trx("team_assignment").where({ team_id: teamId }).delete();
  const changed: { table: TeamResourceTable; resourceIds: string[] }[] = [];
  for (const table of tables) {
    const result = await trx.raw("update ?? set team_ids = array_remove(team_ids, ?::uuid) where team_ids @> array[?::uuid] returning ?? as id", [table.table, teamId, teamId, table.idColumn ?? "id"]);
    changed.push({ table, resourceIds: (result.rows as { id: string }[]).map((r) => r.id) });
  }
  return changed;
}
