/** How a service declares one field of a resource (see README "Declaring a resource"). */
export type IdSqlType = "text" | "uuid" | "bigint";
export type NumberSqlType = "integer" | "bigint" | "double precision" | "numeric";
export type IndexKind = "btree" | "gin" | "trgm";

export interface FieldOptions {
  /** Column holding the value; defaults to the JSON name in snake_case. */
  readonly column?: string;
  /** Part of the published schema, so `select` may name it. Default true; false = internal. */
  readonly selectable?: boolean;
  /** Published, but loaded only when named in `select` (never by `*`). */
  readonly selectOnly?: boolean;
  /** `search` may use it. Default true. */
  readonly searchable?: boolean;
  /** `sort` may use it. Default true for scalar types, false for arrays and JSON. */
  readonly sortable?: boolean;
  /**
   * A sortable `json` field (required there): the keys of its object `sort` may name, e.g.
   * ["email", "name"] for `sort=creator.email`. Any other key is an unknown field (400), as a
   * misspelt column is, rather than a sort on NULL.
   */
  readonly sortKeys?: readonly string[];
  /**
   * A value computed in SQL instead of read from a column; loaded only when named in select.
   * `sql` is a constant template whose `??` placeholders receive `columns` of the same row,
   * qualified by the row's alias, e.g. { sql: "cardinality(??)", columns: ["tags"] }.
   */
  readonly computed?: { readonly sql: string; readonly columns: readonly string[] };
  /**
   * The SQL value is a placeholder the service replaces per row after the query (e.g. a
   * per-caller `readOnly`). Selectable, but never sortable or searchable: the database never
   * sees the value the client gets, so a sort or filter on it would disagree with the output.
   */
  readonly completedAfterQuery?: boolean;
  /**
   * The value lives in a related row: a dotted path through relations to a field there, e.g.
   * `deviceGroup.name` or `teamAssignments.team.id`. Searchable like the path itself; sortable
   * and selectable (as a plain value) only through to-one relations. Select-only by default.
   */
  readonly path?: string;
  /** Index(es) the registry asks for (see indexStatements), e.g. ["trgm", "btree"] for a name. */
  readonly index?: IndexKind | readonly IndexKind[];
}

export type ScalarFieldSpec =
  | ({ readonly type: "string" } & FieldOptions)
  | ({ readonly type: "number"; readonly sqlType?: NumberSqlType } & FieldOptions)
  | ({ readonly type: "boolean" } & FieldOptions)
  /** Values in filters and output are Unix milliseconds whatever the storage. */
  | ({ readonly type: "timestamp"; readonly storage?: "timestamptz" | "epochMs" } & FieldOptions)
  | ({ readonly type: "enum"; readonly values: readonly string[] } & FieldOptions)
  /** text[]; `:` / `=` test containment of one element, `∈` overlap. */
  | ({ readonly type: "stringArray" } & FieldOptions)
  | ({ readonly type: "id"; readonly sqlType?: IdSqlType } & FieldOptions)
  /** Array of ancestor folder ids (root first, own folder last); `path:<id>` = "in <id> or below". */
  | ({ readonly type: "folderPath"; readonly sqlType?: IdSqlType } & FieldOptions)
  /** jsonb; `field.a.b` compares the text at that path. */
  | ({ readonly type: "json" } & FieldOptions);

export interface RelationFieldSpec {
  readonly type: "relation";
  readonly cardinality: "one" | "many";
  /** The related resource; a thunk allows cycles (folder -> parent folder). */
  readonly target: ResourceLike | (() => ResourceLike);
  /** Column of this row the relation starts from (to-one: the foreign key; to-many: usually the id). */
  readonly localColumn: string;
  /** Column of the related row equal to localColumn. */
  readonly targetColumn: string;
  /** To-many: column ordering the related rows in output (default: target id column). */
  readonly orderColumn?: string;
  readonly selectable?: boolean;
  readonly searchable?: boolean;
  /**
   * The target's fields `select` may name inside this relation: those of the nested object the
   * resource publishes (e.g. a user's `customer` is `{id, name, expirationDate, force2FA}`, not a
   * whole customer). Default: every selectable field of the target. `search` and `sort` reach every
   * field of the target either way ("`search` may use any field including internal ones").
   */
  readonly published?: readonly string[];
}

export type FieldSpec = ScalarFieldSpec | RelationFieldSpec;
export type FieldType = FieldSpec["type"];

/** Marker interface so field specs can point at resources without an import cycle. */
export interface ResourceLike {
  readonly kind: "resource";
  readonly name: string;
}
