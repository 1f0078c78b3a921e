// FileUploadService: document 1 "Chunked upload" plus the simple upload.
import type { ServiceImpl } from "@connectrpc/connect";
import type { FileUploadService } from "@signage/contracts/signage/media/v1/upload_pb";
import { cancelUpload, completeUpload } from "./chunked-complete.js";
import { initUpload } from "./chunked-init.js";
import { recoverUpload, uploadPart } from "./chunked-parts.js";
import { uploadFiles } from "./simple-upload.js";
import { uploadThumbnail } from "./thumbnail-upload.js";
import type { UploadDeps } from "./upload-deps.js";

export function fileUploadService(deps: UploadDeps): ServiceImpl<typeof FileUploadService> {
  return {
    async uploadFiles(requests, ctx) {
      return { content: await uploadFiles(requests, ctx, deps) };
    },
    initUpload: (req, ctx) => initUpload(req, ctx, deps),
    uploadPart: (requests, ctx) => uploadPart(requests, ctx, deps),
    async completeUpload(req, ctx) {
      return { file: await completeUpload(req.uploadId, ctx, deps) };
    },
    recoverUpload: (req, ctx) => recoverUpload(req.uploadId, ctx, deps),
    async cancelUpload(req, ctx) {
      await cancelUpload(req.uploadId, ctx, deps);
      return {};
    },
    async uploadThumbnail(requests, ctx) {
      await uploadThumbnail(requests, ctx, deps);
      return {};
    },
  };
}
