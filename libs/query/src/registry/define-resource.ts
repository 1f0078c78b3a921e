import type { FieldSpec, IdSqlType, IndexKind, RelationFieldSpec, ResourceLike, ScalarFieldSpec } from "./field-spec.js";
import { assertIdentifier, assertTableName, snakeCase, tableBaseName } from "./naming.js";
import type { ResolvedField, ResolvedRelationField, ResolvedScalarField, ResourceRegistry, TeamsConfig } from "./resource.js";
import { folderFields, type FolderOptions } from "./folder-fields.js";
import { teamAssignmentsField, type TeamsOptions } from "./team-assignments.js";

export interface ResourceDefinition {
  /** Used in messages; defaults to the table's base name. */
  readonly name?: string;
  readonly table: string;
  /** How generated SQL names the table; defaults to the table's base name. */
  readonly alias?: string;
  /** Column of the `id` field (added as type id/text unless declared); null for rows without id. */
  readonly idColumn?: string | null;
  /** Column holding the tenant (customer) id, for scope hooks and indexes. */
  readonly tenantColumn?: string;
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** Folder fields with the documented names, e.g. { parentField: "deviceGroupId", pathField: "deviceGroupPath" }. */
  readonly folder?: FolderOptions;
  /** Team assignment table; adds the `teamAssignments` relation and enables selectTeamIds. */
  readonly teams?: TeamsOptions;
  /** Sort used when the request has none (the id tiebreak is always appended). */
  readonly defaultSort?: readonly string[];
}

const SCALAR_SORTABLE_BY_DEFAULT = new Set(["string", "number", "boolean", "timestamp", "enum", "id"]);

/** Validates a resource declaration once, at service start-up, and applies the defaults. */
export function defineResource(definition: ResourceDefinition): ResourceRegistry {
  assertTableName(definition.table, "table");
  const alias = definition.alias ?? tableBaseName(definition.table);
  assertIdentifier(alias, "alias");
  const idColumn = definition.idColumn === undefined ? "id" : definition.idColumn;
  if (idColumn !== null) assertIdentifier(idColumn, "idColumn");
  if (definition.tenantColumn !== undefined) assertIdentifier(definition.tenantColumn, "tenantColumn");

  const specs: Record<string, FieldSpec> = {};
  if (idColumn !== null && !("id" in definition.fields)) specs.id = { type: "id", column: idColumn };
  Object.assign(specs, definition.fields);
  if (definition.folder) addUnique(specs, folderFields(definition.folder));
  let teams: TeamsConfig | null = null;
  const extraIndexes: { table: string; columns: string[]; kind: IndexKind }[] = [];
  if (definition.teams) {
    if (idColumn === null) throw new Error("a resource with teams needs an id column");
    const made = teamAssignmentsField(definition.teams, idColumn);
    addUnique(specs, { [made.config.field]: made.field });
    teams = made.config;
    extraIndexes.push(
      { table: made.config.table, columns: [made.config.resourceIdColumn, made.config.teamIdColumn], kind: "btree" },
      { table: made.config.table, columns: [made.config.teamIdColumn, made.config.resourceIdColumn], kind: "btree" },
    );
  }

  const fields = new Map<string, ResolvedField>();
  for (const [name, spec] of Object.entries(specs)) {
    assertIdentifier(name, "field name");
    fields.set(name, spec.type === "relation" ? resolveRelation(name, spec) : resolveScalar(name, spec));
  }
  const idField = idColumn === null ? null : "id";
  if (idField !== null && fields.get(idField)?.type === "relation") throw new Error("the id field cannot be a relation");

  const defaultSort = definition.defaultSort ?? [];
  for (const entry of defaultSort) {
    const root = entry.split(",")[0].trim().split(".")[0];
    if (!fields.has(root)) throw new Error(`defaultSort names unknown field '${root}'`);
  }

  return Object.freeze({
    kind: "resource" as const,
    name: definition.name ?? tableBaseName(definition.table),
    table: definition.table,
    alias,
    idField,
    idColumn,
    tenantColumn: definition.tenantColumn ?? null,
    fields,
    defaultSort,
    teams,
    extraIndexes,
  });
}

function addUnique(target: Record<string, FieldSpec>, extra: Record<string, FieldSpec>): void {
  for (const [name, spec] of Object.entries(extra)) {
    if (name in target) throw new Error(`field '${name}' is declared twice (folder/teams add it already)`);
    target[name] = spec;
  }
}

function resolveScalar(name: string, spec: ScalarFieldSpec): ResolvedScalarField {
  if (spec.computed) {
    const placeholders = spec.computed.sql.split("??").length - 1;
    if (placeholders !== spec.computed.columns.length) {
      throw new Error(`computed field '${name}': ${placeholders} '??' placeholders for ${spec.computed.columns.length} columns`);
    }
    for (const column of spec.computed.columns) assertIdentifier(column, `computed field '${name}' column`);
    if (spec.computed.sql.includes("?") && spec.computed.sql.replaceAll("??", "").includes("?")) {
      throw new Error(`computed field '${name}': only '??' column placeholders are allowed`);
    }
  }
  if (spec.path !== undefined) {
    if (spec.computed || spec.column) throw new Error(`field '${name}': a path field has no column or computed SQL`);
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(spec.path)) {
      throw new Error(`field '${name}': path must be a dotted path through a relation, got '${spec.path}'`);
    }
  }
  if (spec.type === "enum" && (!Array.isArray(spec.values) || spec.values.length === 0)) {
    throw new Error(`enum field '${name}' needs values`);
  }
  if (spec.sortKeys !== undefined && (spec.type !== "json" || spec.sortable !== true)) {
    throw new Error(`field '${name}': sortKeys belong to a sortable json field`);
  }
  if (spec.type === "json" && spec.sortable === true) {
    if (!spec.sortKeys?.length) throw new Error(`json field '${name}': sortable needs sortKeys (the object's keys sort may name)`);
    for (const key of spec.sortKeys) {
      if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(key)) throw new Error(`json field '${name}': sort key '${key}' is not a dotted name`);
    }
  }
  const afterQuery = spec.completedAfterQuery === true;
  if (afterQuery && (spec.sortable || spec.searchable)) {
    throw new Error(`field '${name}': a value completed after the query cannot be sortable or searchable`);
  }
  // No column placeholders: the same value on every row. Sorting by it is meaningless, and a
  // literal in ORDER BY is an error (`false`) or, worse, a select-list position (`1`).
  const constant = spec.computed !== undefined && spec.computed.columns.length === 0;
  if (constant && spec.sortable) throw new Error(`computed field '${name}': without columns it is a constant, which cannot be sortable`);
  const column = spec.computed || spec.path !== undefined ? null : (spec.column ?? snakeCase(name));
  if (column !== null) assertIdentifier(column, `column of field '${name}'`);
  return Object.freeze({
    ...spec,
    name,
    column,
    selectable: spec.selectable ?? true,
    // "computed and select-only fields must be named explicitly"
    selectOnly: spec.selectOnly ?? (spec.computed !== undefined || spec.path !== undefined),
    searchable: afterQuery ? false : (spec.searchable ?? true),
    sortable: afterQuery || constant ? false : (spec.sortable ?? SCALAR_SORTABLE_BY_DEFAULT.has(spec.type)),
    completedAfterQuery: afterQuery,
  }) as ResolvedScalarField;
}

function resolveRelation(name: string, spec: RelationFieldSpec): ResolvedRelationField {
  assertIdentifier(spec.localColumn, `relation '${name}' localColumn`);
  assertIdentifier(spec.targetColumn, `relation '${name}' targetColumn`);
  if (spec.orderColumn !== undefined) assertIdentifier(spec.orderColumn, `relation '${name}' orderColumn`);
  const target = spec.target;
  let resolved: ResourceRegistry | undefined;
  const resolveTarget = (): ResourceRegistry => {
    resolved ??= asRegistry(typeof target === "function" ? target() : target, name);
    return resolved;
  };
  if (typeof target !== "function") resolveTarget();
  return Object.freeze({
    ...spec,
    name,
    selectable: spec.selectable ?? true,
    searchable: spec.searchable ?? true,
    resolveTarget,
  });
}

function asRegistry(value: ResourceLike, relation: string): ResourceRegistry {
  if (!value || value.kind !== "resource" || !(value as ResourceRegistry).fields) {
    throw new Error(`relation '${relation}' must target a resource made by defineResource`);
  }
  return value as ResourceRegistry;
}

export type { IdSqlType };
