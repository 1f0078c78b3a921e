// libs/query's `*` leaves computed fields out ("computed and select-only fields
// must be named explicitly"). A resource whose documented plain fields are
// derived in SQL (the folders' sync flags) widens a blank select or a top-level
// `*` with those extras.
import { planList, type ResourceRegistry } from "@signage/query";

export function withDefaultExtras(select: string | undefined, extras: readonly string[]): string {
  if (select === undefined || select.trim() === "") return ["*", ...extras].join(",");
  return topLevelItems(select).some((item) => item === "*") ? [select, ...extras].join(",") : select;
}

/**
 * withDefaultExtras for a list of `resource`, after checking a `select` the caller sent: a mistake
 * in it is reported on the text the caller sent (its positions, `details.select`), not on the
 * widened one (`*,` would otherwise read as `*,,isSynced...`). `selectName` is what the endpoint
 * calls its select (folderSelect in the file summary).
 */
export function widenSelect(resource: ResourceRegistry, select: string | undefined, extras: readonly string[], selectName = "select"): string {
  const widened = withDefaultExtras(select, extras);
  if (select !== undefined && select.trim() !== "" && widened !== select) planList(resource, { select }, { names: { select: selectName } });
  return widened;
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
