import type { FilterComparison, FilterNode, FilterValue } from "./ast.js";
import { encodeValueText } from "./percent-encoding.js";

/**
 * Prints a well-formed AST as filter language text that parseFilter reads back to the same
 * tree. Parentheses are added only where needed: OR binds tighter than AND, so an OR inside
 * an AND needs none, while an AND inside an OR (or an AND inside an AND) does.
 */
export function printFilter(node: FilterNode): string {
  switch (node.kind) {
    case "comparison":
      return printComparison(node);
    case "and":
      return node.children.map((child) => (child.kind === "and" ? `(${printFilter(child)})` : printFilter(child))).join(",");
    case "or":
      return node.children.map((child) => (child.kind === "comparison" ? printFilter(child) : `(${printFilter(child)})`)).join("|");
  }
}

function printComparison(node: FilterComparison): string {
  return node.field + node.operator + printValue(node.value, node.operator === "=");
}

function printValue(value: FilterValue, afterEquals: boolean): string {
  switch (value.kind) {
    case "null":
      return "NULL";
    case "notNull":
      return "!NULL";
    case "set":
      return encodeValueText(value.items.map(encodeValueText).join(","));
    case "text": {
      const encoded = encodeValueText(value.text);
      // A literal "NULL" / "!NULL" text after '=' must not read back as the special value.
      if (afterEquals && (encoded === "NULL" || encoded === "!NULL")) return encoded.replace(/^N|^!/, (c) => (c === "N" ? "%4E" : "%21"));
      return encoded;
    }
  }
}
