// A BlobStore whose adapter is created on first use (so a heavy SDK is only
// loaded by processes that actually use that store).
import type { BlobStore, MultipartStore } from "./blob-store.js";

export function lazyBlobStore(presignTarget: BlobStore["presignTarget"], load: () => Promise<BlobStore>, minPartSize: number): BlobStore {
  let loaded: Promise<BlobStore> | undefined;
  const store = () => (loaded ??= load());
  const multipart: MultipartStore = {
    minPartSize,
    create: async (...a) => (await store()).multipart.create(...a),
    presignPart: async (...a) => (await store()).multipart.presignPart(...a),
    putPart: async (...a) => (await store()).multipart.putPart(...a),
    listParts: async (...a) => (await store()).multipart.listParts(...a),
    complete: async (...a) => (await store()).multipart.complete(...a),
    abort: async (...a) => (await store()).multipart.abort(...a),
  };
  return {
    presignTarget,
    multipart,
    put: async (...a) => (await store()).put(...a),
    get: async (...a) => (await store()).get(...a),
    stat: async (...a) => (await store()).stat(...a),
    delete: async (...a) => (await store()).delete(...a),
    deletePrefix: async (...a) => (await store()).deletePrefix(...a),
    presignGet: async (...a) => (await store()).presignGet(...a),
  };
}
