// OpenAPI for the streamed edges: uploads take multipart/form-data or a raw
// body, downloads answer with bytes (and honour Range).
import type { RestRoute } from "../routes/route-table.js";
import { streamingShape } from "./streamed-body.js";

/** Overrides for the generated operation of a streaming route; {} for unary routes. */
export function streamingOpenApi(route: RestRoute): Record<string, unknown> {
  const shape = streamingShape(route.method);
  if (shape === "upload") {
    return {
      requestBody: {
        required: true,
        description: "Streamed: multipart/form-data (file parts and fields) or the raw bytes.",
        content: {
          "multipart/form-data": { schema: { type: "object", additionalProperties: { type: "string", format: "binary" } } },
          "application/octet-stream": { schema: { type: "string", format: "binary" } },
        },
      },
    };
  }
  if (shape === "download") {
    return {
      responses: {
        "200": { description: "The bytes", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
        "206": { description: "The requested byte range (Range header)", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
        default: { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } } },
      },
    };
  }
  return {};
}
