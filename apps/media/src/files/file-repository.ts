// Writing and reading file rows. `insertFile` is THE way a file row comes into
// existence (simple upload, chunked upload complete, cloud sync): it resolves the
// folder inside the tenant, keeps `path` (the recursive-search column) right and
// validates the documented fields. Callers own the transaction.
import { Code } from "@connectrpc/connect";
import type { Knex } from "knex";
import { serviceError, type Scope } from "@signage/auth";
import { newId as defaultNewId, type IdGenerator } from "@signage/db";
import { requireStoredFolder, rootFolderOf } from "../folders/folder-repository.js";
import { isUuid } from "@signage/runtime";
import { fileKindOf } from "./file-kind.js";
import type { FileRow } from "./file-row.js";
import { nextFileUpdateDate } from "./next-update-date.js";

type Db = Knex | Knex.Transaction;

export interface NewFileInput {
  /** Defaults to a new UUIDv7 (pass one when the blob key is derived from it). */
  id?: string;
  customerId: number;
  /** The `parentId` of the upload; undefined/null = the customer's root folder (created if missing). */
  fileFolderId?: string | null;
  name: string;
  /** MIME type detected by the client and validated by the upload. */
  contentType: string;
  size: number;
  width?: number | null;
  height?: number | null;
  /** CRC32 checksum (hex) for duplicate detection. */
  crcCheckSum?: string | null;
  tags?: readonly string[];
  metaData?: Record<string, unknown> | null;
  /** Unix ms. */
  validFrom?: number | null;
  validTo?: number | null;
  muted?: boolean;
  fileMutabilityType?: string | null;
  previewPath?: string | null;
  creator?: { userId?: string; email?: string; name?: string | null };
  /** Blob store key of the bytes and of the client-supplied thumbnail. */
  storageKey?: string | null;
  thumbnailKey?: string | null;
  isAlphaFile?: boolean;
  isBetaFile?: boolean;
}

export function fileNotFound(id: string) {
  return serviceError(Code.NotFound, "file.error.notFound", `File '${id}' not found`, { fileId: id });
}

/** "validFrom, validTo: validity window": an empty window is a client mistake. */
export function checkValidity(validFrom: number | null | undefined, validTo: number | null | undefined): void {
  // A bound PostgreSQL's bigint cannot hold (or that a JS number rounds) is a client mistake, not a 500.
  for (const [parameter, value] of [["validFrom", validFrom], ["validTo", validTo]] as const) {
    if (value != null && !Number.isSafeInteger(value)) {
      throw serviceError(Code.InvalidArgument, "file.error.invalidValidity", `${parameter} must be an integer (Unix ms) or null`, { parameter });
    }
  }
  if (validFrom != null && validTo != null && validFrom > validTo) {
    throw serviceError(Code.InvalidArgument, "file.error.invalidValidity", "validFrom must not be after validTo", { validFrom, validTo });
  }
}

/** `parameter`: the input the name came in (`newName` on rename), which the error names. */
export function checkFileName(name: string | undefined | null, parameter = "name"): string {
  const trimmed = (name ?? "").trim();
  if (!trimmed) throw serviceError(Code.InvalidArgument, "file.error.invalidName", `A file needs a non-empty ${parameter}`, { parameter });
  if (trimmed.length > 1024) throw serviceError(Code.InvalidArgument, "file.error.invalidName", `A file ${parameter} has at most 1024 characters`, { parameter, maxLength: 1024 });
  return trimmed;
}

export function cleanTags(tags: readonly string[] | undefined): string[] {
  return [...new Set((tags ?? []).map((t) => t.trim()).filter((t) => t.length > 0))];
}

/**
 * Inserts one file row in the caller's transaction and returns it.
 * Throws (as service errors): fileFolder.error.notFound (folder not in the tenant),
 * fileFolder.error.filteredFolder, file.error.invalidName, file.error.invalidValidity.
 */
export async function insertFile(trx: Db, input: NewFileInput, newId: IdGenerator = defaultNewId): Promise<FileRow> {
  const name = checkFileName(input.name);
  checkValidity(input.validFrom, input.validTo);
  const folder = input.fileFolderId
    ? await requireStoredFolder(trx, input.customerId, input.fileFolderId, "share")
    : await rootFolderOf(trx, input.customerId, newId);
  const [row] = await trx<FileRow>("file")
    .insert({
      id: input.id ?? newId(),
      customer_id: input.customerId,
      name,
      content_type: input.contentType,
      type: fileKindOf(input.contentType),
      size: input.size,
      width: input.width ?? null,
      height: input.height ?? null,
      crc_check_sum: input.crcCheckSum ?? null,
      file_folder_id: folder.id,
      path: folder.path,
      tags: cleanTags(input.tags),
      meta_data: input.metaData ?? null,
      valid_from: input.validFrom ?? null,
      valid_to: input.validTo ?? null,
      muted: input.muted ?? false,
      file_mutability_type: input.fileMutabilityType ?? null,
      preview_path: input.previewPath ?? null,
      creator_user_id: input.creator?.userId ?? null,
      creator_email: input.creator?.email ?? null,
      creator_name: input.creator?.name ?? null,
      storage_key: input.storageKey ?? null,
      thumbnail_key: input.thumbnailKey ?? null,
      // A preview sent with the file is its first preview upload (the thumbnail PUT sets it later ones).
      last_preview_upload_time: input.thumbnailKey ? Date.now() : null,
      is_alpha_file: input.isAlphaFile ?? false,
      is_beta_file: input.isBetaFile ?? false,
    } as never)
    .returning("*");
  return row as FileRow;
}

/** The file in one of the scope's tenants (or of one customer), or undefined. */
export async function findFile(db: Db, scope: Scope | number, id: string, forUpdate = false): Promise<FileRow | undefined> {
  if (!isUuid(id)) return undefined;
  const q = db<FileRow>("file").where({ id });
  if (typeof scope === "number") q.where({ customer_id: scope });
  else if (scope.kind === "tenants") q.whereIn("customer_id", [...scope.customerIds]);
  if (forUpdate) q.forUpdate();
  return (await q.first()) as FileRow | undefined;
}

export async function requireFile(db: Db, scope: Scope | number, id: string, forUpdate = false): Promise<FileRow> {
  const row = await findFile(db, scope, id, forUpdate);
  if (!row) throw fileNotFound(id);
  return row;
}

/** Sets the thumbnail blob key after the client uploaded it ("the client must supply a thumbnail"). */
export async function setThumbnailKey(db: Db, customerId: number, fileId: string, thumbnailKey: string): Promise<void> {
  const n = await db("file").where({ id: fileId, customer_id: customerId }).update({ thumbnail_key: thumbnailKey, last_preview_upload_time: Date.now(), update_date: nextFileUpdateDate(db) });
  if (n === 0) throw fileNotFound(fileId);
}
