import fc from "fast-check";
import { FILTER_OPERATORS, type FilterComparison, type FilterNode, type FilterValue } from "../../src/index.js";

/** Characters that mean something to the filter language, plus awkward ones. */
export const SYNTAX_CHARACTERS = [...FILTER_OPERATORS, ",", "|", "(", ")", "%", ".", "!", "N", "U", "L", " ", "\\", "+", "_", "a", "1"];

/** Any text PostgreSQL can store: no NUL, no lone surrogate. */
export const storableText = fc
  .string({ unit: fc.oneof(fc.constantFrom(...SYNTAX_CHARACTERS), fc.string({ unit: "binary", minLength: 1, maxLength: 1 })), maxLength: 12 })
  .filter((value) => !value.includes("\u0000"));

const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/);
export const fieldPath = fc.array(identifier, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("."));

export const filterValue = (operator: FilterComparison["operator"]): fc.Arbitrary<FilterValue> => {
  if (operator === "∈") return fc.array(storableText, { minLength: 1, maxLength: 4 }).map((items) => ({ kind: "set", items }));
  const textValue = storableText.map((value): FilterValue => ({ kind: "text", text: value }));
  if (operator !== "=") return textValue;
  return fc.oneof(textValue, fc.constant<FilterValue>({ kind: "null" }), fc.constant<FilterValue>({ kind: "notNull" }));
};

export const comparison: fc.Arbitrary<FilterComparison> = fc
  .tuple(fieldPath, fc.constantFrom(...FILTER_OPERATORS))
  .chain(([field, operator]) => filterValue(operator).map((value) => ({ kind: "comparison" as const, field, operator, value })));

/** Well-formed ASTs: and/or nodes with two or more children, at most `depth` levels. */
export function filterTree(leaf: fc.Arbitrary<FilterNode>, depth = 4): fc.Arbitrary<FilterNode> {
  return fc.letrec<{ node: FilterNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", maxDepth: depth, withCrossShrink: true },
      leaf,
      fc.array(tie("node"), { minLength: 2, maxLength: 3 }).map((children): FilterNode => ({ kind: "and", children })),
      fc.array(tie("node"), { minLength: 2, maxLength: 3 }).map((children): FilterNode => ({ kind: "or", children })),
    ),
  })).node;
}

/** Strings that look like filters, mutated: the parser's hardest inputs. */
export const filterLikeString = fc.oneof(
  fc.string({ unit: fc.constantFrom(...SYNTAX_CHARACTERS), maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 20 }),
);
