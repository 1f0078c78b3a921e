// The document renders computed fields such as `readOnly`, `orientation` or
// `fileCount` without asking, while libs/query's `*` leaves computed fields out.
// A blank select or a top-level `*` is widened with the resource's extras.

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
