import type { ResolvedScalarField } from "../registry/resource.js";
import { columnFragment, type SqlFragment } from "./fragment.js";

/** The SQL reading a field of the row at `alias`: its column, or its computed expression. */
export function fieldExpression(field: ResolvedScalarField, column: string | null, alias: string): SqlFragment {
  if (column !== null) return columnFragment(alias, column);
  const computed = field.computed!;
  return { sql: `(${computed.sql})`, bindings: computed.columns.map((name) => `${alias}.${name}`) };
}
