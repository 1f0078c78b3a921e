// OpenAPI for the streamed edges, per operation: what each upload's service reads from the
// multipart parts or raw body (apps/media: simple-upload.ts, thumbnail-upload.ts,
// custom-apps/upload-spool.ts, chunked-parts.ts) and what each download serves. A download
// answers 206 only when its request has a `range` field (download-route.ts forwards Range there).
import type { RestRoute } from "../routes/route-table.js";
import { streamingShape } from "./streamed-body.js";

type Schema = Record<string, unknown>;

const BINARY = { type: "string", format: "binary" };
const ZIP_TYPES = "application/zip, application/x-zip-compressed";

/** The request body media of each upload RPC; an unlisted one takes any bytes, raw or as multipart parts. */
const UPLOAD_BODIES: Record<string, { description: string; content: Record<string, Schema> }> = {
  "signage.media.v1.FileUploadService/UploadFiles": {
    description: "multipart/form-data: one or more `files[]` parts (a supported media type each, below 200 MB) and optional `previews[]` image parts, each named like its file. Other part names answer 400 upload.error.unknownPart.",
    content: {
      "multipart/form-data": {
        schema: { type: "object", required: ["files[]"], properties: { "files[]": { type: "array", items: BINARY }, "previews[]": { type: "array", items: BINARY } } },
        encoding: { "previews[]": { contentType: "image/*" } },
      },
    },
  },
  "signage.media.v1.FileUploadService/UploadThumbnail": {
    description: "The image itself (any image/* type), or a multipart/form-data upload whose first file part is it. Other types answer 415.",
    content: {
      "image/*": { schema: BINARY },
      "multipart/form-data": { schema: { type: "object", required: ["file"], properties: { file: BINARY } }, encoding: { file: { contentType: "image/*" } } },
    },
  },
  "signage.media.v1.CustomAppService/UploadMyAppPackage": {
    description: "The package ZIP: the multipart/form-data part `file`, or the raw body. Other types answer 415 media.error.unsupportedMediaType.",
    content: {
      "multipart/form-data": { schema: { type: "object", required: ["file"], properties: { file: BINARY } }, encoding: { file: { contentType: ZIP_TYPES } } },
      "application/zip": { schema: BINARY },
      "application/x-zip-compressed": { schema: BINARY },
    },
  },
};

/** What each download serves; an unlisted one serves whatever type the stored bytes have. */
const DOWNLOAD_TYPES: Record<string, string> = {
  "signage.media.v1.CustomAppService/DownloadMyAppPackage": "application/zip",
};

/** Chunk parts: the raw bytes, or the first part of a multipart/form-data body (its name is not read). */
const ANY_BYTES_BODY = {
  description: "The raw bytes, or a multipart/form-data body whose first file part holds them.",
  content: {
    "multipart/form-data": { schema: { type: "object", additionalProperties: BINARY } },
    "application/octet-stream": { schema: BINARY },
  },
};

/** Overrides for the generated operation of a streaming route; {} for unary routes. */
export function streamingOpenApi(route: RestRoute, errors: Record<string, Schema>, fallback: Schema): Record<string, unknown> {
  const shape = streamingShape(route.method);
  const rpc = `${route.service.typeName}/${route.method.name}`;
  if (shape === "upload") return { requestBody: { required: true, ...(UPLOAD_BODIES[rpc] ?? ANY_BYTES_BODY) } };
  if (shape === "download") {
    const content = { [DOWNLOAD_TYPES[rpc] ?? "*/*"]: { schema: BINARY } };
    const servesRanges = route.method.input.fields.some((f) => f.name === "range" && f.fieldKind === "scalar");
    return {
      responses: {
        "200": { description: "The bytes", content },
        ...(servesRanges ? { "206": { description: "The requested byte range (Range header)", content } } : {}),
        ...errors,
        default: fallback,
      },
    };
  }
  return {};
}
