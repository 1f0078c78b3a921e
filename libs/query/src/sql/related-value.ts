import type { ResolvedScalarField } from "../registry/resource.js";
import type { PathHop } from "../resolve/resolve-path.js";
import type { SqlFragment } from "./fragment.js";

/**
 * A value read through to-one relations as nested scalar subqueries, one per hop, rather than
 * joins: the main query keeps a single table, so scope hooks and `extend` can name its columns
 * unqualified without ambiguity.
 */
export function relatedValueExpression(
  rootAlias: string,
  hops: readonly PathHop[],
  field: ResolvedScalarField,
  aliasPrefix: string,
  read: (field: ResolvedScalarField, alias: string) => SqlFragment,
): SqlFragment {
  if (hops.some((hop) => hop.relation.cardinality === "many")) {
    throw new Error(`'${field.name}' is read through a to-many relation, so it has no single value`);
  }
  const aliases = hops.map((_, index) => `${aliasPrefix}${index + 1}`);
  let expr = read(field, aliases.at(-1) ?? rootAlias);
  for (let index = hops.length - 1; index >= 0; index--) {
    const { relation, target } = hops[index];
    const parent = index === 0 ? rootAlias : aliases[index - 1];
    expr = {
      sql: `(select ${expr.sql} from ?? where ?? = ?? limit 1)`,
      bindings: [...expr.bindings, `${target.table} as ${aliases[index]}`, `${aliases[index]}.${relation.targetColumn}`, `${parent}.${relation.localColumn}`],
    };
  }
  return expr;
}
