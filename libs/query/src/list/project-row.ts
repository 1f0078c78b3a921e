import type { Selection } from "./selection.js";
import { decodeValue } from "./decode-value.js";

export type Row = Record<string, unknown>;

/** Builds the output object of one row: selected fields only, unselected ones left unset. */
export function projectRow(selection: Selection, row: Row): Row {
  const out: Row = {};
  for (const selected of selection.fields) {
    const value = row[selected.field.name];
    if (selected.kind === "value") {
      out[selected.field.name] = decodeValue(selected.field, value);
    } else if (value === null || value === undefined) {
      out[selected.field.name] = selected.field.cardinality === "many" ? [] : null;
    } else if (Array.isArray(value)) {
      out[selected.field.name] = value.map((item) => projectRow(selected.selection, item as Row));
    } else {
      out[selected.field.name] = projectRow(selected.selection, value as Row);
    }
  }
  return out;
}
