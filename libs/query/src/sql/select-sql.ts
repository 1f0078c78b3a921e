import type { ResolvedRelationField, ResolvedScalarField, ResourceRegistry } from "../registry/resource.js";
import { resolvePath } from "../resolve/resolve-path.js";
import { relatedValueExpression } from "./related-value.js";
import { fieldExpression } from "./field-expression.js";
import type { Selection } from "../list/selection.js";
import type { SqlFragment } from "./fragment.js";

/**
 * The select list of a page query: one `expr as "jsonName"` per selected field. Relations
 * load as correlated subqueries building JSON (to-one: object or null, to-many: array), so
 * the page query never multiplies rows and needs no GROUP BY.
 */
export function selectFragments(selection: Selection, alias: string): SqlFragment[] {
  const aliases = { count: 0 };
  return selection.fields.map((selected) => {
    const expr =
      selected.kind === "value"
        ? valueExpression(selection.entity, selected.field, alias, false, aliases)
        : relationExpression(selected.field, selected.selection, alias, aliases);
    return { sql: `${expr.sql} as ??`, bindings: [...expr.bindings, selected.field.name] };
  });
}

/**
 * How a value is read: timestamps as Unix ms; inside JSON, 64-bit numbers as text so no digit
 * is lost before decodeValue sees them.
 */
function valueExpression(entity: ResourceRegistry, field: ResolvedScalarField, alias: string, insideJson: boolean, aliases: { count: number }): SqlFragment {
  if (field.path !== undefined) {
    const path = resolvePath(entity, field.name, () => true);
    if (path.kind !== "field") throw new Error(`field '${field.name}': path '${field.path}' does not end at a field`);
    const prefix = `_a${++aliases.count}_`;
    return relatedValueExpression(alias, path.hops, path.field, prefix, (target, targetAlias) => valueExpression(path.entity, target, targetAlias, insideJson, aliases));
  }
  const expr = fieldExpression(field, field.column, alias);
  if (field.type === "timestamp" && (field.storage ?? "timestamptz") === "timestamptz") {
    return { sql: `floor(extract(epoch from ${expr.sql}) * 1000)::bigint`, bindings: expr.bindings };
  }
  const wide =
    (field.type === "number" && (field.sqlType ?? "bigint") !== "integer" && field.sqlType !== "double precision") ||
    (field.type === "id" && field.sqlType === "bigint");
  if (insideJson && wide) return { sql: `(${expr.sql})::text`, bindings: expr.bindings };
  return expr;
}

function relationExpression(field: ResolvedRelationField, selection: Selection, parentAlias: string, aliases: { count: number }): SqlFragment {
  const target = field.resolveTarget();
  const alias = `_p${++aliases.count}`;
  const pairs: string[] = [];
  const bindings: unknown[] = [];
  for (const selected of selection.fields) {
    const expr =
      selected.kind === "value"
        ? valueExpression(selection.entity, selected.field, alias, true, aliases)
        : relationExpression(selected.field, selected.selection, alias, aliases);
    pairs.push(`?::text, ${expr.sql}`);
    bindings.push(selected.field.name, ...expr.bindings);
  }
  const object = `json_build_object(${pairs.join(", ")})`;
  const from = `from ?? where ?? = ??`;
  const fromBindings = [`${target.table} as ${alias}`, `${alias}.${field.targetColumn}`, `${parentAlias}.${field.localColumn}`];
  if (field.cardinality === "one") {
    return { sql: `(select ${object} ${from} limit 1)`, bindings: [...bindings, ...fromBindings] };
  }
  const orderColumn = field.orderColumn ?? target.idColumn;
  const order = orderColumn === null ? "" : " order by ??";
  const orderBindings = orderColumn === null ? [] : [`${alias}.${orderColumn}`];
  return {
    sql: `coalesce((select json_agg(${object}${order}) ${from}), '[]'::json)`,
    bindings: [...bindings, ...orderBindings, ...fromBindings],
  };
}
