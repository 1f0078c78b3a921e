// FileFolderService: the folder list of this slice (document 1 "File folder").
import type { ServiceImpl } from "@connectrpc/connect";
import type { Knex } from "knex";
import { requireAuth } from "@signage/auth";
import { listRpc } from "@signage/runtime";
import { FileFolderSchema, type FileFolderService } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { fileFolderResource } from "./file-folder-resource.js";

export function fileFolderService(knex: Knex): Partial<ServiceImpl<typeof FileFolderService>> {
  return {
    listFileFolders(req, ctx) {
      return listRpc(ctx, { knex, resource: fileFolderResource, message: FileFolderSchema, query: req.query, scope: requireAuth(ctx).scope });
    },
  };
}
