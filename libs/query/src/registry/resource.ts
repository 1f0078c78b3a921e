import type { FieldSpec, IdSqlType, IndexKind, NumberSqlType, RelationFieldSpec, ResourceLike, ScalarFieldSpec } from "./field-spec.js";

/** A field after defaults are applied; what resolvers and SQL builders read. */
export type ResolvedScalarField = ScalarFieldSpec & {
  readonly name: string;
  /** Column name, or null for computed fields. */
  readonly column: string | null;
  readonly selectable: boolean;
  readonly selectOnly: boolean;
  readonly searchable: boolean;
  readonly sortable: boolean;
  /** See FieldOptions.completedAfterQuery; such a field is neither searchable nor sortable. */
  readonly completedAfterQuery: boolean;
};

export type ResolvedRelationField = RelationFieldSpec & {
  readonly name: string;
  readonly selectable: boolean;
  readonly searchable: boolean;
  readonly resolveTarget: () => ResourceRegistry;
};

export type ResolvedField = ResolvedScalarField | ResolvedRelationField;

export interface TeamsConfig {
  /** JSON name of the to-many relation to the assignment table (`teamAssignments`). */
  readonly field: string;
  readonly table: string;
  readonly resourceIdColumn: string;
  readonly teamIdColumn: string;
  readonly readOnlyColumn: string;
  readonly teamIdType: IdSqlType;
}

export interface ResourceRegistry extends ResourceLike {
  readonly table: string;
  /** Name the table is referenced by in generated SQL (scope hooks qualify columns with it). */
  readonly alias: string;
  /** JSON name and column of the id, or null for assignment-like rows without one. */
  readonly idField: string | null;
  readonly idColumn: string | null;
  readonly tenantColumn: string | null;
  readonly fields: ReadonlyMap<string, ResolvedField>;
  readonly defaultSort: readonly string[];
  readonly teams: TeamsConfig | null;
  /** Extra indexes (beyond field `index` options) the registry asks for. */
  readonly extraIndexes: readonly { readonly table: string; readonly columns: readonly string[]; readonly kind: IndexKind }[];
}

export function isRelation(field: ResolvedField): field is ResolvedRelationField {
  return field.type === "relation";
}

export function numberSqlType(field: { readonly sqlType?: NumberSqlType }): NumberSqlType {
  return field.sqlType ?? "bigint";
}

export function idSqlType(field: { readonly sqlType?: IdSqlType }): IdSqlType {
  return field.sqlType ?? "text";
}

export type { FieldSpec };
