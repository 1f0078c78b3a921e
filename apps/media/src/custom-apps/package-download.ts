// "Download package": the current ZIP as uploaded, streamed per stream.proto
// (a head with type, file name, size and an `attachment` disposition, then chunks).
// Fails before the first upload.
import type { Knex } from "knex";
import type { Scope } from "@signage/auth";
import { BlobNotFoundError, type BlobStore } from "@signage/storage";
import type { DownloadMyAppPackageResponse } from "@signage/contracts/signage/media/v1/custom_app_pb";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { DownloadMyAppPackageResponseSchema } from "@signage/contracts/signage/media/v1/custom_app_pb";
import { appNotFound, noPackage } from "./custom-app-errors.js";
import { findApp } from "./custom-app-repository.js";

type Answer = MessageInitShape<typeof DownloadMyAppPackageResponseSchema>;

const CHUNK_BYTES = 256 * 1024;

/**
 * `<app name>-<version or id>.zip`. Unicode stays (the gateway sends it as RFC 6266 `filename*`
 * with an ASCII fallback); what no file system takes in a name (path separators, `:*?"<>|`,
 * control characters) becomes `_`.
 */
function downloadName(name: string | null, version: string | null, id: number): string {
  const base = `${name?.trim() || `app`}-${version?.trim() || id}`;
  const safe = base.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, "_").replace(/\s+/g, " ");
  // By code point: a cut never splits a surrogate pair.
  return `${[...safe].slice(0, 200).join("")}.zip`;
}

export async function* downloadPackage(knex: Knex, store: BlobStore, scope: Scope, id: number): AsyncGenerator<Answer | DownloadMyAppPackageResponse> {
  const app = await findApp(knex, scope, id);
  if (!app) throw appNotFound(id);
  // "Private app package download before any upload | fails"
  if (!app.package_key) throw noPackage(id);
  const blob = await store.get(app.package_key).catch((e) => {
    throw e instanceof BlobNotFoundError ? noPackage(id) : e;
  });
  try {
    yield {
      body: {
        kind: {
          case: "head",
          // A package is saved, not displayed: the gateway answers `Content-Disposition: attachment`
          // (the service picks the type with this header; the gateway adds the file name parameters).
          value: {
            contentType: "application/zip",
            filename: downloadName(app.name, app.version, id),
            size: BigInt(blob.size),
            status: 200,
            headers: { "Cache-Control": "no-store", "Content-Disposition": "attachment" },
          },
        },
      },
    };
    for await (const chunk of blob.body as AsyncIterable<Buffer>) {
      for (let offset = 0; offset < chunk.length; offset += CHUNK_BYTES) {
        yield { body: { kind: { case: "chunk", value: chunk.subarray(offset, offset + CHUNK_BYTES) } } };
      }
    }
  } finally {
    // A HEAD (or a client gone after the head) ends the stream before the body was read: close the opened blob.
    blob.body.destroy();
  }
}
