import { isRelation, type ResolvedRelationField, type ResolvedScalarField, type ResourceRegistry } from "../registry/resource.js";

export interface PathHop {
  readonly relation: ResolvedRelationField;
  readonly target: ResourceRegistry;
}

export type ResolvedPath =
  | {
      readonly kind: "field";
      readonly hops: readonly PathHop[];
      readonly entity: ResourceRegistry;
      readonly field: ResolvedScalarField;
      /** Segments after a JSON field: `deviceInfo.general.model` -> ["general", "model"]. */
      readonly jsonPath: readonly string[];
    }
  | { readonly kind: "relation"; readonly hops: readonly PathHop[]; readonly entity: ResourceRegistry };

export type PathProblem =
  | { readonly kind: "unknown"; readonly field: string; readonly knownFields: readonly string[] }
  | { readonly kind: "notNested"; readonly field: string };

/**
 * Walks a dotted path through relations. `visible` decides which fields of each entity the
 * caller may see (search: searchable ones, select: published ones); others count as unknown.
 */
export function resolvePath(
  resource: ResourceRegistry,
  path: string,
  visible: (field: ResolvedScalarField | ResolvedRelationField) => boolean,
): ResolvedPath | PathProblem {
  const segments = path.split(".");
  const hops: PathHop[] = [];
  let entity = resource;
  for (let index = 0; index < segments.length; index++) {
    const field = entity.fields.get(segments[index]);
    if (!field || !visible(field)) {
      const prefix = segments.slice(0, index).join(".");
      const known = [...entity.fields.values()].filter(visible).map((f) => (prefix ? `${prefix}.${f.name}` : f.name));
      return { kind: "unknown", field: path, knownFields: known };
    }
    if (isRelation(field)) {
      const target = field.resolveTarget();
      hops.push({ relation: field, target });
      entity = target;
      if (index === segments.length - 1) return { kind: "relation", hops, entity };
      continue;
    }
    const rest = segments.slice(index + 1);
    if (rest.length > 0 && field.type !== "json") return { kind: "notNested", field: segments.slice(0, index + 1).join(".") };
    if (field.path !== undefined) {
      // A path field stands for its path; the fields on the way may be internal ones.
      const target = resolvePath(entity, field.path, () => true);
      if (target.kind !== "field") throw new Error(`field '${field.name}': path '${field.path}' does not end at a field`);
      return { kind: "field", hops: [...hops, ...target.hops], entity: target.entity, field: target.field, jsonPath: [...target.jsonPath, ...rest] };
    }
    return { kind: "field", hops, entity, field, jsonPath: rest };
  }
  throw new Error("unreachable: empty path");
}
