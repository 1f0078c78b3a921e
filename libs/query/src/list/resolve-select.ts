import { InvalidSelectError, UnknownFieldError } from "../errors.js";
import { isRelation, type ResolvedField, type ResourceRegistry } from "../registry/resource.js";
import { resolvePath } from "../resolve/resolve-path.js";
import type { SelectItem } from "./parse-select.js";
import type { Selection, SelectedField } from "./selection.js";

const STAR: readonly SelectItem[] = [{ name: "*", position: 0 }];

/**
 * Resolves select items against published fields. `*` = primitive published fields (no
 * computed, select-only or relation fields); `id` is always included; a relation named
 * without a group selects the relation's `*`.
 */
export interface ResolveSelectOptions {
  /** The request parameter as the caller named it (an endpoint may call its select `folderSelect`). */
  readonly parameter?: string;
  /** Field-name prefix inside a relation (`customer.`), for messages. */
  readonly prefix?: string;
  /** Inside a relation that publishes a subset of its target: that subset. */
  readonly published?: ReadonlySet<string>;
}

export function resolveSelect(entity: ResourceRegistry, items: readonly SelectItem[] | null, text: string, options: ResolveSelectOptions = {}): Selection {
  const { parameter = "select", prefix = "", published } = options;
  const chosen = new Map<string, SelectedField>();
  // Inside a relation that publishes a subset of its target, the rest is not selectable.
  const selectable = (field: ResolvedField) => field.selectable && (published === undefined || published.has(field.name));
  for (const item of items ?? STAR) {
    if (item.name === "*") {
      for (const field of entity.fields.values()) {
        if (isInStar(field) && selectable(field)) chosen.set(field.name, { kind: "value", field });
      }
      continue;
    }
    const field = entity.fields.get(item.name);
    if (!field || !selectable(field)) {
      const known = [...entity.fields.values()].filter(selectable).map((f) => prefix + f.name);
      throw new UnknownFieldError(parameter, prefix + item.name, known, item.position, "select");
    }
    if (isRelation(field)) {
      const target = field.resolveTarget();
      const subset = field.published === undefined ? undefined : new Set(field.published);
      for (const name of subset ?? []) if (!target.fields.has(name)) throw new Error(`relation '${field.name}' of ${entity.name} publishes '${name}', which ${target.name} does not have`);
      const nested = resolveSelect(target, item.children ?? null, text, { parameter, prefix: `${prefix}${field.name}.`, published: subset });
      chosen.set(field.name, { kind: "relation", field, selection: nested });
    } else if (item.children) {
      throw new InvalidSelectError(`Invalid ${parameter} at position ${item.position}: '${prefix}${item.name}' is not a relation, so it takes no (...)`, text, item.position, parameter);
    } else {
      if (field.path !== undefined) assertSingleValued(entity, field.name);
      chosen.set(field.name, { kind: "value", field });
    }
  }
  if (entity.idField !== null && !chosen.has(entity.idField)) {
    const id = entity.fields.get(entity.idField)!;
    if (!isRelation(id)) chosen.set(id.name, { kind: "value", field: id });
  }
  // Declaration order keeps the output stable whatever order select used.
  const fields = [...entity.fields.keys()].filter((name) => chosen.has(name)).map((name) => chosen.get(name)!);
  return { entity, fields };
}

/** A selectable path field must lead through to-one relations only: a registry mistake otherwise. */
function assertSingleValued(entity: ResourceRegistry, name: string): void {
  const path = resolvePath(entity, name, () => true);
  if (path.kind === "field" && path.hops.some((hop) => hop.relation.cardinality === "many")) {
    throw new Error(`field '${name}' of ${entity.name} goes through a to-many relation; declare it selectable: false`);
  }
}

/** Computed fields are select-only unless declared `selectOnly: false` (a stored fact spelled as SQL). */
function isInStar(field: ResolvedField): field is Exclude<ResolvedField, { type: "relation" }> {
  return !isRelation(field) && field.selectable && !field.selectOnly;
}
