import { InvalidSortError, UnknownFieldError } from "../errors.js";
import { isRelation, type ResolvedScalarField, type ResourceRegistry } from "../registry/resource.js";
import { fieldExpression } from "../sql/field-expression.js";
import { resolvePath } from "../resolve/resolve-path.js";
import { relatedValueExpression } from "../sql/related-value.js";
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
  if (path.kind === "unknown") {
    // Offer only what sort accepts: sortable fields and the to-one relations leading to them.
    throw new UnknownFieldError("sort", path.field, path.knownFields.flatMap((name) => sortableUnder(resource, name)));
  }
  if (path.kind === "relation") {
    if (path.hops.some((hop) => hop.relation.cardinality === "many")) {
      throw new InvalidSortError(`Invalid sort '${entry}': '${field}' is or goes through a to-many relation, which has no single value to sort by`, entry);
    }
    const example = sortableNames(path.entity)[0];
    const hint = example === undefined ? "it has no sortable fields" : `sort on one of its fields (e.g. ${field}.${example})`;
    throw new InvalidSortError(`Invalid sort '${entry}': '${field}' is a relation; ${hint}`, entry);
  }
  if (path.kind === "field" && path.field.completedAfterQuery) {
    throw new InvalidSortError(
      `Invalid sort '${entry}': '${field}' is computed per caller after the query, so it cannot be sorted on; sortable fields: ${sortableNames(resource).join(", ")}`,
      entry,
    );
  }
  if (path.kind === "field" && path.field.type === "json" && path.field.sortable && path.hops.length === 0) return jsonSortKey(resource, entry, field, direction, path.field, path.jsonPath);
  if (path.kind === "notNested" || path.jsonPath.length > 0 || !path.field.sortable) {
    throw new InvalidSortError(`Invalid sort '${entry}': '${field}' cannot be sorted on; sortable fields: ${sortableNames(resource).join(", ")}`, entry);
  }
  if (path.hops.some((hop) => hop.relation.cardinality === "many")) {
    throw new InvalidSortError(`Invalid sort '${entry}': '${field}' goes through a to-many relation, which has no single value to sort by`, entry);
  }
  const expression = relatedValueExpression(resource.alias, path.hops, path.field, "_s", (target, alias) => fieldExpression(target, target.column, alias));
  return { field, direction, expression };
}

/**
 * "nested fields allowed": a JSON field declared sortable (e.g. a file's `creator`, built from its
 * columns) sorts by one of its fields, compared as jsonb (numbers as numbers, strings as strings).
 */
function jsonSortKey(resource: ResourceRegistry, entry: string, field: string, direction: "asc" | "desc", json: ResolvedScalarField, jsonPath: readonly string[]): SortKey {
  const keys = json.sortKeys ?? [];
  if (jsonPath.length === 0) throw new InvalidSortError(`Invalid sort '${entry}': '${field}' is an object; sort on one of its fields (e.g. ${field}.${keys[0] ?? "<name>"})`, entry);
  // Only the object's declared keys: any other is as unknown as a misspelt column (not a sort on NULL).
  if (!keys.includes(jsonPath.join("."))) throw new UnknownFieldError("sort", field, keys.map((key) => `${json.name}.${key}`));
  const value = fieldExpression(json, json.column, resource.alias);
  // A JSON null (a creator without a name) sorts as SQL NULL: last ascending, as columns' NULLs do.
  return { field, direction, expression: { sql: `nullif((${value.sql})::jsonb #> ?::text[], 'null'::jsonb)`, bindings: [...value.bindings, jsonPath] } };
}

/** What an unknown-field error offers for one known name: itself when sortable, a sortable JSON field's keys, or nothing. */
function sortableUnder(resource: ResourceRegistry, name: string): string[] {
  const field = resource.fields.get(name);
  if (field && !isRelation(field) && field.type === "json" && field.sortable) return (field.sortKeys ?? []).map((key) => `${name}.${key}`);
  return isSortablePath(resource, name) ? [name] : [];
}

/** A sortable field reached through to-one relations only, or a to-one relation (a prefix of one). */
function isSortablePath(resource: ResourceRegistry, name: string): boolean {
  const path = resolvePath(resource, name, () => true);
  if (path.kind !== "field" && path.kind !== "relation") return false;
  if (path.hops.some((hop) => hop.relation.cardinality === "many")) return false;
  return path.kind === "relation" || (path.jsonPath.length === 0 && path.field.sortable && path.field.type !== "json");
}

function sortableNames(resource: ResourceRegistry): string[] {
  return [...resource.fields.values()]
    .filter((field) => !isRelation(field) && field.sortable)
    .flatMap((field) => (!isRelation(field) && field.type === "json" ? (field.sortKeys ?? []).map((key) => `${field.name}.${key}`) : [field.name]));
}
