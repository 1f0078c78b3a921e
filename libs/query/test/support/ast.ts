import type { FilterComparison, FilterNode, FilterOperator } from "../../src/index.js";

/** Test shorthands for ASTs (no positions). */
export const text = (field: string, operator: FilterOperator, value: string): FilterComparison => ({
  kind: "comparison",
  field,
  operator,
  value: { kind: "text", text: value },
});
export const inSet = (field: string, ...items: string[]): FilterComparison => ({ kind: "comparison", field, operator: "∈", value: { kind: "set", items } });
export const isNull = (field: string): FilterComparison => ({ kind: "comparison", field, operator: "=", value: { kind: "null" } });
export const notNull = (field: string): FilterComparison => ({ kind: "comparison", field, operator: "=", value: { kind: "notNull" } });
export const and = (...children: FilterNode[]): FilterNode => ({ kind: "and", children });
export const or = (...children: FilterNode[]): FilterNode => ({ kind: "or", children });

/** The same tree without source positions, for comparisons. */
export function withoutPositions(node: FilterNode): FilterNode {
  if (node.kind === "comparison") {
    const { position: _position, ...rest } = node;
    return rest;
  }
  return { kind: node.kind, children: node.children.map(withoutPositions) };
}
