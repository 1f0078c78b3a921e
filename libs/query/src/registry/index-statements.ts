import type { IndexKind } from "./field-spec.js";
import { isRelation, type ResourceRegistry } from "./resource.js";
import { tableBaseName } from "./naming.js";
import type { SqlFragment } from "../sql/fragment.js";

/**
 * DDL for the indexes the registry's filters and sorts rely on, to put in a migration and run
 * with `knex.raw(sql, bindings)`:
 * - btree fields: (tenant, column, id), serving `field=<v>` and `sort=field` within a tenant;
 * - (tenant, id) for counts and the id tiebreak;
 * - gin: array containment (`tags:x`, `{path}:<id>`);
 * - trgm: `name:x` contains / `^` starts-with, via pg_trgm (extension created if missing);
 * - team assignment table: (resource_id, team_id) and (team_id, resource_id).
 */
export function indexStatements(resource: ResourceRegistry): SqlFragment[] {
  const statements: SqlFragment[] = [];
  const tenant = resource.tenantColumn === null ? [] : [resource.tenantColumn];
  const id = resource.idColumn === null ? [] : [resource.idColumn];
  const wanted: { table: string; columns: string[]; kind: IndexKind }[] = [];
  if (tenant.length > 0 && id.length > 0) wanted.push({ table: resource.table, columns: [...tenant, ...id], kind: "btree" });
  for (const field of resource.fields.values()) {
    if (isRelation(field) || field.index === undefined || field.column === null) continue;
    const kinds: readonly IndexKind[] = typeof field.index === "string" ? [field.index] : field.index;
    for (const kind of kinds) {
      const columns = kind === "btree" ? [...tenant, field.column, ...id.filter((c) => c !== field.column)] : [field.column];
      wanted.push({ table: resource.table, columns, kind });
    }
  }
  for (const extra of resource.extraIndexes) wanted.push({ table: extra.table, columns: [...extra.columns], kind: extra.kind });

  if (wanted.some((index) => index.kind === "trgm")) statements.push({ sql: "create extension if not exists pg_trgm", bindings: [] });
  for (const index of wanted) {
    const name = indexName(index.table, index.columns, index.kind);
    const columns = index.columns.map(() => "??").join(", ");
    const using = index.kind === "btree" ? "" : " using gin";
    const opclass = index.kind === "trgm" ? " gin_trgm_ops" : "";
    statements.push({
      sql: `create index if not exists ?? on ??${using} (${columns}${opclass})`,
      bindings: [name, index.table, ...index.columns],
    });
  }
  return statements;
}

function indexName(table: string, columns: readonly string[], kind: IndexKind): string {
  const name = `${tableBaseName(table)}_${columns.join("_")}_${kind}_idx`;
  if (name.length <= 63) return name;
  let hash = 0;
  for (const character of name) hash = (Math.imul(hash, 31) + character.charCodeAt(0)) >>> 0;
  return `${name.slice(0, 54)}_${hash.toString(36).padStart(7, "0").slice(0, 8)}`;
}
