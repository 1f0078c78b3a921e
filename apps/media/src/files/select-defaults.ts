// libs/query's `*` leaves computed fields out ("computed and select-only fields
// must be named explicitly"). A resource whose documented plain fields are
// derived in SQL (the folders' sync flags) widens a blank select or a top-level
// `*` with those extras.

export function withDefaultExtras(select: string | undefined, extras: readonly string[]): string {
  if (select === undefined || select.trim() === "") return ["*", ...extras].join(",");
  return topLevelItems(select).some((item) => item === "*") ? [select, ...extras].join(",") : select;
}

/** Whether `select` names `field` at its top level. */
export function selectsField(select: string, field: string): boolean {
  return topLevelItems(select).includes(field);
}

function topLevelItems(select: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = "";
  for (const c of select) {
    if (c === "(") depth++;
    if (c === ")") depth--;
    if (c === "," && depth === 0) {
      items.push(current.trim());
      current = "";
    } else current += c;
  }
  items.push(current.trim());
  return items;
}
