// Renders an RPC response as the documents show it: the `response_body`
// field when the route names one, the Page object for list responses
// ({content, page: PageInfo} flattened), or the whole message.
import type { DescMessage } from "@bufbuild/protobuf";
import type { RestRoute } from "../routes/route-table.js";
import { fieldToRest, messageToRest } from "./rest-json.js";
import { installBufferTextEncoding } from "@signage/platform";

// Every response rendered here was just decoded from protobuf binary.
installBufferTextEncoding();

const PAGE_INFO = "signage.common.v1.PageInfo";

function isPageResponse(desc: DescMessage): boolean {
  const page = desc.fields.find((f) => f.name === "page");
  const content = desc.fields.find((f) => f.name === "content");
  return page?.fieldKind === "message" && page.message.typeName === PAGE_INFO && content?.fieldKind === "list";
}

function contentMessage(pageDesc: DescMessage): DescMessage | undefined {
  const content = pageDesc.fields.find((f) => f.name === "content");
  return content?.fieldKind === "list" && content.listKind === "message" ? content.message : undefined;
}

/** proto3 renders an unselected repeated field as []; a `select` that left it out means "absent". */
function dropUnselectedLists(item: DescMessage | undefined, content: Record<string, unknown>[], selected: ReadonlySet<string>): void {
  if (!item) return;
  const unselected = item.fields.filter((f) => (f.fieldKind === "list" || f.fieldKind === "map") && !selected.has(f.jsonName)).map((f) => f.jsonName);
  if (unselected.length === 0) return;
  for (const row of content) for (const name of unselected) delete row[name];
}

/** `undefined` means "no body" (HTTP 204). */
export function renderResponse(route: RestRoute, message: Record<string, unknown>): unknown {
  const output = route.method.output;
  if (route.responseBody) {
    const field = output.fields.find((f) => f.name === route.responseBody);
    if (!field) throw new Error(`${output.typeName} has no field '${route.responseBody}'`);
    const value = message[field.localName];
    return value === undefined ? null : fieldToRest(field, value);
  }
  if (isPageResponse(output)) {
    const { content = [], page = {} } = messageToRest(output, message) as { content?: Record<string, unknown>[]; page?: Record<string, unknown> };
    const { selectedFields, ...pageInfo } = page as { selectedFields?: string[] };
    if (selectedFields?.length) dropUnselectedLists(contentMessage(output), content, new Set(selectedFields));
    return { content, ...pageInfo };
  }
  if (output.fields.length === 0) return undefined;
  return messageToRest(output, message);
}
