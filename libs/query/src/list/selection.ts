import type { ResolvedRelationField, ResolvedScalarField, ResourceRegistry } from "../registry/resource.js";

/** Which fields a list returns: the outcome of `select`, per entity, `id` included. */
export interface Selection {
  readonly entity: ResourceRegistry;
  readonly fields: readonly SelectedField[];
}

export type SelectedField =
  | { readonly kind: "value"; readonly field: ResolvedScalarField }
  | { readonly kind: "relation"; readonly field: ResolvedRelationField; readonly selection: Selection };
