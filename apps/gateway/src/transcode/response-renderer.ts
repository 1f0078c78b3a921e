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
    const { content, page } = messageToRest(output, message) as { content?: unknown[]; page?: Record<string, unknown> };
    return { content: content ?? [], ...page };
  }
  if (output.fields.length === 0) return undefined;
  return messageToRest(output, message);
}
