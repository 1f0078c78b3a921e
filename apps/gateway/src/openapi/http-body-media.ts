// Unary RPCs whose request or response is google.api.HttpBody-shaped ({bytes data, string
// content_type}) are not JSON on the wire (routes/rpc-routes.ts): the request is the first file
// part of a multipart/form-data upload, the response the bytes themselves under their type.
import type { RestRoute } from "../routes/route-table.js";
import { isHttpBodyShaped } from "../transcode/http-body.js";
import type { Schema } from "./schemas.js";

const BINARY = { type: "string", format: "binary" };

/** What the owning service accepts or serves, where it is narrower than any bytes (core profile-picture.ts). */
const MEDIA_BY_RPC: Record<string, { upload?: string; download?: string }> = {
  "signage.core.v1.UserService/SetProfilePicture": { upload: "image/png, image/jpeg, image/gif or image/webp" },
  "signage.core.v1.UserService/GetProfilePicture": { download: "image/*" },
};

/** Overrides for the generated operation; {} when neither side is HttpBody-shaped. */
export function httpBodyOpenApi(route: RestRoute, errors: Record<string, Schema>, fallback: Schema): Record<string, unknown> {
  const media = MEDIA_BY_RPC[`${route.service.typeName}/${route.method.name}`] ?? {};
  const overrides: Record<string, unknown> = {};
  if (route.body === "*" && isHttpBodyShaped(route.method.input)) {
    overrides.requestBody = {
      required: true,
      description: `multipart/form-data; the first file part is the content${media.upload ? ` (${media.upload})` : ""}. Other content types answer 415.`,
      content: { "multipart/form-data": { schema: { type: "object", required: ["file"], properties: { file: BINARY } }, ...(media.upload ? { encoding: { file: { contentType: media.upload.replace(/ or /g, ", ") } } } : {}) } },
    };
  }
  if (!route.responseBody && isHttpBodyShaped(route.method.output)) {
    overrides.responses = {
      "200": { description: "The stored bytes, under their own content type", content: { [media.download ?? "*/*"]: { schema: BINARY } } },
      ...errors,
      default: fallback,
    };
  }
  return overrides;
}
