// A quick filter's `criteria` ("must match filteredEntityType: type, search,
// folderId / groupId / deviceGroupId, searchRecursively (bool), name, tags
// (array); FILE adds validFileOnly, isUndefinedValidityValid"): checked against
// the entity type's rules (libs/runtime quick-filters/entity-types.ts) and
// compiled to the list conventions' filter AST, so every service's list
// applies a quick filter exactly as its own `search` would.
import { Code } from "@connectrpc/connect";
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { serviceError } from "@signage/auth";
import { andFilters, compileFilter, ListQueryError, parseFilter, type FilterComparison, type FilterNode } from "@signage/query";
import { ENTITY_TYPE_RULES, tagFormatProblem, type CriterionKind, type FilteredEntityTypeName } from "@signage/runtime";

function invalid(message: string, details: JsonObject) {
  return serviceError(Code.InvalidArgument, "quickFilter.error.invalidCriteria", message, details);
}

function checkKind(key: string, kind: CriterionKind, value: JsonValue): void {
  const ok =
    kind === "string" ? typeof value === "string"
    : kind === "boolean" ? typeof value === "boolean"
    : kind === "stringOrStrings" ? typeof value === "string" || (Array.isArray(value) && value.every((v) => typeof v === "string"))
    : Array.isArray(value) && value.every((v) => typeof v === "string");
  if (!ok) {
    const expected = { string: "a string", boolean: "true or false", stringOrStrings: "a string or an array of strings", tags: "an array of strings" }[kind];
    throw invalid(`criteria.${key} must be ${expected}`, { field: key, expected: kind });
  }
  if (kind === "tags") {
    for (const tag of value as string[]) {
      const problem = tagFormatProblem(tag);
      if (problem) throw invalid(`criteria.tags: ${problem}`, { field: key, tag });
    }
  }
}

const comparison = (field: string, operator: FilterComparison["operator"], value: FilterComparison["value"]): FilterComparison => ({
  kind: "comparison",
  field,
  operator,
  value,
});
const text = (t: string) => ({ kind: "text", text: t }) as const;

/** "a file outside its validFrom/validTo window is skipped": valid at `now`; open bounds count as valid unless isUndefinedValidityValid is false. */
function validityFilter(now: number, undefinedIsValid: boolean): FilterNode {
  const from = { kind: "or", children: [comparison("validFrom", "=", { kind: "null" }), comparison("validFrom", "≤", text(String(now)))] } as const;
  const to = { kind: "or", children: [comparison("validTo", "=", { kind: "null" }), comparison("validTo", "≥", text(String(now)))] } as const;
  if (undefinedIsValid) return { kind: "and", children: [from, to] };
  // A file without any validity window is not "valid" in this mode.
  const defined = { kind: "or", children: [comparison("validFrom", "=", { kind: "notNull" }), comparison("validTo", "=", { kind: "notNull" })] } as const;
  return { kind: "and", children: [from, to, defined] };
}

/** The criteria as one filter AST (null: no condition). Assumes checkCriteria passed. */
export function criteriaToFilter(entityType: FilteredEntityTypeName, criteria: JsonObject, now = Date.now()): FilterNode | null {
  const rules = ENTITY_TYPE_RULES[entityType];
  const parts: (FilterNode | null)[] = [];
  const type = criteria.type;
  if (typeof type === "string" && type !== "") parts.push(comparison("type", "=", text(type)));
  if (Array.isArray(type) && type.length > 0) parts.push(comparison("type", "∈", { kind: "set", items: type as string[] }));
  if (typeof criteria.name === "string" && criteria.name !== "") parts.push(comparison("name", ":", text(criteria.name)));
  for (const tag of (criteria.tags as string[] | undefined) ?? []) parts.push(comparison("tags", ":", text(tag)));
  const folderId = criteria[rules.folder.criterion];
  if (typeof folderId === "string" && folderId !== "") {
    parts.push(
      criteria.searchRecursively === true
        ? comparison(rules.folder.recursiveField, ":", text(folderId))
        : comparison(rules.folder.directField, "=", text(folderId)),
    );
  }
  if (typeof criteria.search === "string" && criteria.search.trim() !== "") parts.push(parseFilter(criteria.search, { parameter: "quickFilter" }));
  if (entityType === "FILE" && criteria.validFileOnly === true) parts.push(validityFilter(now, criteria.isUndefinedValidityValid !== false));
  return andFilters(...parts);
}

/** Refuses criteria that do not match the entity type: unknown keys, wrong JSON kinds, a `search` the entity's list cannot run. */
export function checkCriteria(entityType: FilteredEntityTypeName, criteria: JsonObject | undefined): JsonObject {
  if (!criteria || typeof criteria !== "object" || Array.isArray(criteria)) {
    throw invalid("criteria is required and must be an object", { field: "criteria" });
  }
  const rules = ENTITY_TYPE_RULES[entityType];
  const allowed = Object.keys(rules.criteria);
  for (const [key, value] of Object.entries(criteria)) {
    const kind = rules.criteria[key];
    if (!kind) {
      throw invalid(`criteria.${key} is not a criterion of ${entityType} quick filters; allowed: ${allowed.join(", ")}`, { field: key, filteredEntityType: entityType, allowed });
    }
    if (value !== null) checkKind(key, kind, value);
  }
  try {
    const node = criteriaToFilter(entityType, criteria);
    if (node) compileFilter(rules.fields, node, { parameter: "quickFilter" });
  } catch (e) {
    if (e instanceof ListQueryError) throw invalid(`criteria do not fit ${entityType} lists: ${e.message}`, { field: "search", reason: e.key, ...(JSON.parse(JSON.stringify(e.details)) as JsonObject) });
    throw e;
  }
  // Stored without the keys given as null.
  return Object.fromEntries(Object.entries(criteria).filter(([, v]) => v !== null)) as JsonObject;
}
