import { InvalidSortError, UnknownFieldError } from "../errors.js";
import { isRelation, type ResolvedScalarField, type ResourceRegistry } from "../registry/resource.js";
import { fieldExpression } from "../sql/field-expression.js";
import { resolvePath, type PathHop } from "../resolve/resolve-path.js";
import type { SqlFragment } from "../sql/fragment.js";

export interface SortKey {
  /** The field as requested, e.g. `deviceGroup.name`. */
  readonly field: string;
  readonly direction: "asc" | "desc";
  readonly expression: SqlFragment;
}

/**
 * `sort=field,direction`, repeatable; nested fields follow to-one relations. The id is
 * appended as a last key (unless already sorted on) so pages never overlap or skip rows.
 */
export function resolveSort(resource: ResourceRegistry, entries: readonly string[]): SortKey[] {
  const keys = entries.map((entry) => resolveSortEntry(resource, entry));
  const idField = resource.idField;
  if (idField !== null && !keys.some((key) => key.field === idField)) {
    keys.push(resolveSortEntry(resource, idField));
  }
  return keys;
}

function resolveSortEntry(resource: ResourceRegistry, entry: string): SortKey {
  const parts = entry.split(",").map((part) => part.trim());
  if (parts.length > 2 || parts[0] === "") {
    throw new InvalidSortError(`Invalid sort '${entry}': expected 'field' or 'field,asc|desc' (repeat sort for more keys)`, entry);
  }
  const direction = (parts[1] ?? "asc").toLowerCase();
  if (direction !== "asc" && direction !== "desc") {
    throw new InvalidSortError(`Invalid sort '${entry}': direction must be asc or desc, not '${parts[1]}'`, entry);
  }
  const field = parts[0];
  const path = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(field)
    ? resolvePath(resource, field, () => true)
    : ({ kind: "unknown", field, knownFields: sortableNames(resource) } as const);
  if (path.kind === "unknown") throw new UnknownFieldError("sort", path.field, path.knownFields);
  if (path.kind === "relation") {
    throw new InvalidSortError(`Invalid sort '${entry}': '${field}' is a relation; sort on one of its fields (e.g. ${field}.name)`, entry);
  }
  if (path.kind === "notNested" || path.jsonPath.length > 0 || !path.field.sortable) {
    throw new InvalidSortError(`Invalid sort '${entry}': '${field}' cannot be sorted on; sortable fields: ${sortableNames(resource).join(", ")}`, entry);
  }
  if (path.hops.some((hop) => hop.relation.cardinality === "many")) {
    throw new InvalidSortError(`Invalid sort '${entry}': '${field}' goes through a to-many relation, which has no single value to sort by`, entry);
  }
  return { field, direction, expression: sortExpression(resource, path.hops, path.field) };
}

/**
 * A scalar subquery per to-one hop rather than a join: the main query keeps a single table,
 * so scope hooks and `extend` can name its columns unqualified without ambiguity.
 */
function sortExpression(resource: ResourceRegistry, hops: readonly PathHop[], field: ResolvedScalarField): SqlFragment {
  const aliases = hops.map((_, index) => `_s${index + 1}`);
  let expr = fieldExpression(field, field.column, aliases.at(-1) ?? resource.alias);
  for (let index = hops.length - 1; index >= 0; index--) {
    const { relation, target } = hops[index];
    const parent = index === 0 ? resource.alias : aliases[index - 1];
    expr = {
      sql: `(select ${expr.sql} from ?? where ?? = ?? limit 1)`,
      bindings: [...expr.bindings, `${target.table} as ${aliases[index]}`, `${aliases[index]}.${relation.targetColumn}`, `${parent}.${relation.localColumn}`],
    };
  }
  return expr;
}

function sortableNames(resource: ResourceRegistry): string[] {
  return [...resource.fields.values()].filter((field) => !isRelation(field) && field.sortable).map((field) => field.name);
}
