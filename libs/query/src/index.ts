// Errors (all map to HTTP 400 / gRPC InvalidArgument with `key` and `details`).
export {
  ListQueryError,
  FilterParseError,
  UnknownFieldError,
  InvalidFilterError,
  InvalidSortError,
  InvalidSelectError,
  InvalidPagingError,
  InvalidListParameterError,
  type ListParameter,
} from "./errors.js";

// Filter language.
export {
  FILTER_OPERATORS,
  andFilters,
  type FilterOperator,
  type FilterValue,
  type FilterComparison,
  type FilterAnd,
  type FilterOr,
  type FilterNode,
} from "./filter/ast.js";
export { parseFilter, FILTER_LIMITS, type ParseFilterOptions } from "./filter/parse-filter.js";
export { printFilter } from "./filter/print-filter.js";

// Field registry.
export { defineResource, type ResourceDefinition } from "./registry/define-resource.js";
export type { FieldSpec, ScalarFieldSpec, RelationFieldSpec, FieldOptions, IdSqlType, NumberSqlType, IndexKind } from "./registry/field-spec.js";
export type { ResourceRegistry, ResolvedField, ResolvedScalarField, ResolvedRelationField, TeamsConfig } from "./registry/resource.js";
export type { FolderOptions } from "./registry/folder-fields.js";
export type { TeamsOptions } from "./registry/team-assignments.js";
export { indexStatements } from "./registry/index-statements.js";

// Compiling filters.
export { compileFilter, type CompileFilterOptions } from "./resolve/compile-filter.js";
export type { CompiledFilter, ExistsHop } from "./resolve/compiled-filter.js";
export { TIMESTAMP_MIN_MS, TIMESTAMP_MAX_MS } from "./resolve/typed-values.js";
export { applyCompiledFilter } from "./sql/apply-compiled-filter.js";
export { applyFilter } from "./sql/apply-filter.js";
export type { SqlFragment } from "./sql/fragment.js";

// Lists.
export type { ListParams } from "./list/list-params.js";
export { planList, isListPlan, type ListPlan, type PlanOptions } from "./list/plan-list.js";
export { runList, type RunListOptions } from "./list/run-list.js";
export { toPageResponse, type ListResult, type PageInfo } from "./list/page.js";
export { DEFAULT_PAGE_SIZE, DEFAULT_MAX_PAGE_SIZE, resolvePaging, type PagingOptions } from "./list/paging.js";
export type { Selection, SelectedField } from "./list/selection.js";
export type { SortKey } from "./list/sort.js";
export type { Row } from "./list/project-row.js";
export {
  allScopes,
  tenantScope,
  teamVisibility,
  readOnlyThroughTeams,
  type ScopeHook,
  type ListScope,
  type ScopeTarget,
  type ReadOnlyHook,
} from "./list/scope.js";
