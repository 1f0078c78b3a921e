// "Download package": the current ZIP as uploaded, streamed per stream.proto
// (a head with type, file name and size, then chunks). Fails before the first upload.
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

function downloadName(appId: string | null, version: string | null, id: number): string {
  const base = [appId ?? `app-${id}`, version].filter(Boolean).join("-");
  return `${base.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 200)}.zip`;
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
          value: { contentType: "application/zip", filename: downloadName(app.app_id, app.version, id), size: BigInt(blob.size), status: 200, headers: { "Cache-Control": "no-store" } },
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
