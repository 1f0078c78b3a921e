// Renders an RPC response as the documents show it: the `response_body`
// field when the route names one, the Page object for list responses
// ({content, page: PageInfo} flattened), or the whole message.
import { hasOption, type DescField, type DescMessage } from "@bufbuild/protobuf";
import type { RestRoute } from "../routes/route-table.js";
import { null_when_unset } from "@signage/contracts/signage/options/v1/options_pb";
import { fieldToRest, messageToRest } from "./rest-json.js";
import { installBufferTextEncoding } from "@signage/platform";

// Every response rendered here was just decoded from protobuf binary.
installBufferTextEncoding();

const PAGE_INFO = "signage.common.v1.PageInfo";
/** PageInfo's field telling the renderer which row fields were selected; never rendered. */
export const PAGE_SELECTION_FIELD = "selectedFields";

function isPageResponse(desc: DescMessage): boolean {
  const page = desc.fields.find((f) => f.name === "page");
  const content = desc.fields.find((f) => f.name === "content");
  return page?.fieldKind === "message" && page.message.typeName === PAGE_INFO && content?.fieldKind === "list";
}

function contentMessage(pageDesc: DescMessage): DescMessage | undefined {
  const content = pageDesc.fields.find((f) => f.name === "content");
  return content?.fieldKind === "list" && content.listKind === "message" ? content.message : undefined;
}

/**
 * What proto3 cannot say about a list row, from the fields the page carries (all when
 * `selected` is empty): an unselected repeated field is absent, not [] (which reads as "no
 * tags"); a selected `(signage.options.v1.null_when_unset)` field without a value is null
 * ("parentId null only for the root folder"), not absent.
 */
const nullableFields = new WeakMap<DescMessage, DescField[]>();

function nullableOf(desc: DescMessage): DescField[] {
  let fields = nullableFields.get(desc);
  if (!fields) nullableFields.set(desc, (fields = desc.fields.filter((f) => hasOption(f, null_when_unset))));
  return fields;
}

/**
 * A row that is one of several kinds (a oneof of messages, e.g. the file summary's folder
 * or file): each kind is completed by its own selection, given as `<kind>.<field>`.
 */
function completeKinds(item: DescMessage, content: Record<string, unknown>[], selected: ReadonlySet<string>): boolean {
  const kinds = item.oneofs.length === 1 && item.fields.every((f) => f.oneof === item.oneofs[0] && f.fieldKind === "message") ? item.fields : undefined;
  if (!kinds) return false;
  for (const kind of kinds) {
    const prefix = `${kind.jsonName}.`;
    const own = new Set([...selected].filter((s) => s.startsWith(prefix)).map((s) => s.slice(prefix.length)));
    const rows = content.map((row) => row[kind.jsonName]).filter((row): row is Record<string, unknown> => typeof row === "object" && row !== null);
    if (kind.fieldKind === "message") completeRows(kind.message, rows, own);
  }
  return true;
}

function completeRows(item: DescMessage | undefined, content: Record<string, unknown>[], selected: ReadonlySet<string>): void {
  if (!item || content.length === 0) return;
  if (completeKinds(item, content, selected)) return;
  const isSelected = (f: DescField) => selected.size === 0 || selected.has(f.jsonName);
  const unselectedLists = item.fields.filter((f) => (f.fieldKind === "list" || f.fieldKind === "map") && !isSelected(f)).map((f) => f.jsonName);
  const nullable = nullableOf(item).filter(isSelected).map((f) => f.jsonName);
  if (unselectedLists.length === 0 && nullable.length === 0) return;
  for (const row of content) {
    for (const name of unselectedLists) delete row[name];
    for (const name of nullable) if (row[name] === undefined) row[name] = null;
  }
}

/**
 * Outside a Page every field counts as selected: a `null_when_unset` field without a value
 * renders null wherever its message appears (a breadcrumb's root folder, an unlimited size).
 */
const reachesNullable = new WeakMap<DescMessage, boolean>();

function hasNullable(desc: DescMessage, visiting = new Set<DescMessage>()): boolean {
  const known = reachesNullable.get(desc);
  if (known !== undefined) return known;
  if (visiting.has(desc)) return false;
  visiting.add(desc);
  const found = nullableOf(desc).length > 0 || desc.fields.some((f) => nestedMessage(f) !== undefined && hasNullable(nestedMessage(f)!, visiting));
  visiting.delete(desc);
  if (visiting.size === 0) reachesNullable.set(desc, found);
  return found;
}

function nestedMessage(field: DescField): DescMessage | undefined {
  if (field.fieldKind === "message" && !field.message.typeName.startsWith("google.protobuf.")) return field.message;
  if (field.fieldKind === "list" && field.listKind === "message") return field.message;
  return undefined;
}

function fillNulls(desc: DescMessage, json: unknown): void {
  if (json === null || typeof json !== "object") return;
  if (Array.isArray(json)) {
    for (const item of json) fillNulls(desc, item);
    return;
  }
  const row = json as Record<string, unknown>;
  for (const field of nullableOf(desc)) if (row[field.jsonName] === undefined) row[field.jsonName] = null;
  for (const field of desc.fields) {
    const nested = nestedMessage(field);
    if (nested && row[field.jsonName] !== undefined && hasNullable(nested)) fillNulls(nested, row[field.jsonName]);
  }
}

function rendered(desc: DescMessage | undefined, json: unknown): unknown {
  if (desc && hasNullable(desc)) fillNulls(desc, json);
  return json;
}

/** `undefined` means "no body" (HTTP 204). */
export function renderResponse(route: RestRoute, message: Record<string, unknown>): unknown {
  const output = route.method.output;
  if (route.responseBody) {
    const field = output.fields.find((f) => f.name === route.responseBody);
    if (!field) throw new Error(`${output.typeName} has no field '${route.responseBody}'`);
    const value = message[field.localName];
    return value === undefined ? null : rendered(nestedMessage(field), fieldToRest(field, value));
  }
  if (isPageResponse(output)) {
    const { content = [], page = {} } = messageToRest(output, message) as { content?: Record<string, unknown>[]; page?: Record<string, unknown> };
    const { [PAGE_SELECTION_FIELD]: selectedFields, ...pageInfo } = page as { [PAGE_SELECTION_FIELD]?: string[] };
    completeRows(contentMessage(output), content, new Set(selectedFields ?? []));
    return { content, ...pageInfo };
  }
  if (output.fields.length === 0) return undefined;
  return rendered(output, messageToRest(output, message));
}
