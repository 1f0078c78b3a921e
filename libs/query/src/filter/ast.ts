/**
 * Typed AST of the `search` filter language. Well-formed trees satisfy:
 * - `and` / `or` nodes have at least two children;
 * - `set` values appear exactly with `∈`, `null` / `notNull` only with `=`;
 * - field is dot-separated identifiers; texts contain no U+0000 and no lone surrogate.
 * Such trees print with printFilter and parse back to the same tree (positions aside).
 */
export const FILTER_OPERATORS = [":", "=", "≠", "∉", "^", ">", "≥", "<", "≤", "∈"] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FilterValue =
  | { readonly kind: "text"; readonly text: string }
  /** `∈` items, already percent-decoded (see README "Encoding"). */
  | { readonly kind: "set"; readonly items: readonly string[] }
  /** `=NULL`: null, or an empty collection. */
  | { readonly kind: "null" }
  /** `=!NULL`: not null, or a non-empty collection. */
  | { readonly kind: "notNull" };

export interface FilterComparison {
  readonly kind: "comparison";
  /** Dotted path as written, e.g. `teamAssignments.team.id`. */
  readonly field: string;
  readonly operator: FilterOperator;
  readonly value: FilterValue;
  /** Index of the field's first character in the parsed text (absent on built trees). */
  readonly position?: number;
}

export interface FilterAnd {
  readonly kind: "and";
  readonly children: readonly FilterNode[];
}

export interface FilterOr {
  readonly kind: "or";
  readonly children: readonly FilterNode[];
}

export type FilterNode = FilterComparison | FilterAnd | FilterOr;

/** AND of the given filters, skipping absent ones; null when none is given. */
export function andFilters(...nodes: readonly (FilterNode | null | undefined)[]): FilterNode | null {
  const present = nodes.filter((node): node is FilterNode => node != null);
  if (present.length === 0) return null;
  if (present.length === 1) return present[0];
  return { kind: "and", children: present };
}
