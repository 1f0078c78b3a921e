// Media's files, folders, uploads and storage usage over its own RPC surface, as internal teams
// call it (gRPC/Connect, not the REST edge that parses enums by name and range-checks int64s):
// an enum number the contract does not define, an int64 id beyond what a customer id can be, a
// team named twice in `teamIds` are each a 400 with a key, never a silent default, a rounded id
// or a 500, and nothing is written.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError, createClient, type Client, type Transport } from "@connectrpc/connect";
import { eventually } from "@signage/testing";
import { FileService, type TeamAssignmentMode } from "@signage/contracts/signage/media/v1/file_pb";
import { FileFolderService, type SyncMode } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { FileUploadService, type UploadFilesRequest } from "@signage/contracts/signage/media/v1/upload_pb";
import { StorageUsageService } from "@signage/contracts/signage/media/v1/storage_usage_pb";
import { insertFile } from "../src/files/file-repository.js";
import { png, startUploadPlatform, type UploadTenant } from "./uploads-support.js";
import { failureOf, mediaWireTransport } from "./support/direct-rpc.js";

let env: Awaited<ReturnType<typeof startUploadPlatform>>;
let t: UploadTenant;
let transportFor: (token: string) => Transport;
let files: Client<typeof FileService>;
let folders: Client<typeof FileFolderService>;
let uploads: Client<typeof FileUploadService>;

beforeAll(async () => {
  env = await startUploadPlatform("media_direct_rpc_input");
  t = await env.tenant();
  transportFor = (token) => mediaWireTransport(env.platform, token);
  files = createClient(FileService, transportFor(t.owner.token));
  folders = createClient(FileFolderService, transportFor(t.owner.token));
  uploads = createClient(FileUploadService, transportFor(t.owner.token));
}, 60_000);
afterAll(() => env?.close());

const failure = failureOf;

const knex = () => env.platform.knexOf("media");
const newFile = (name: string) => insertFile(knex(), { customerId: t.id, name, contentType: "image/png", size: 10, fileFolderId: t.rootId });

describe("replaceFileReference", () => {
  it("an undefined teamAssignmentMode number is 400 file.error.invalidValue, not a MERGE: nothing replaced or deleted", async () => {
    const [old, source] = [await newFile("old.png"), await newFile("source.png")];
    const call = files.replaceFileReference({ fileIdToReplace: old.id, sourceFileId: source.id, removeOldFile: true, teamAssignmentMode: 999 as TeamAssignmentMode });
    expect(await failure(call)).toEqual({ code: Code.InvalidArgument, key: "file.error.invalidValue" });
    expect(await knex()("file").where({ id: old.id }).first("id")).toBeDefined();
    // A defined mode still replaces (and removes the old file).
    await files.replaceFileReference({ fileIdToReplace: old.id, sourceFileId: source.id, removeOldFile: true, teamAssignmentMode: 3 as TeamAssignmentMode });
    expect(await knex()("file").where({ id: old.id }).first("id")).toBeUndefined();
  });
});

describe("synced folder creates", () => {
  it("an undefined syncMode number is 400 fileFolder.error.invalidValue (as the gateway answers an unknown name), not a 501", async () => {
    const settings = { alphaCredentialId: "credential", alphaFolderId: "folder", fileTypes: ["IMAGE"], syncMode: 999 as SyncMode };
    expect(await failure(folders.createSyncedAlphaDriveFolder({ parentId: t.rootId, name: "synced", settings }))).toEqual({ code: Code.InvalidArgument, key: "fileFolder.error.invalidValue" });
    // A defined mode passes validation and reaches the (not yet implemented) sync.
    expect(await failure(folders.createSyncedAlphaDriveFolder({ parentId: t.rootId, name: "synced", settings: { ...settings, syncMode: 1 as SyncMode } }))).toEqual({ code: Code.Unimplemented, key: "fileFolder.error.syncNotImplemented" });
  });
});

describe("getStorageUsage (internal, core's)", () => {
  it.each([2n ** 53n + 1n, 2n ** 63n - 1n, 0n, -5n])("customer id %s is 400 customer.error.customerIdInvalid, never another customer's usage nor a 500", async (id) => {
    const usage = createClient(StorageUsageService, transportFor(env.admin));
    expect(await failure(usage.getStorageUsage({ customerIds: [BigInt(t.id), id] }))).toEqual({ code: Code.InvalidArgument, key: "customer.error.customerIdInvalid" });
  });

  it("more ids than PostgreSQL has bind parameters (65535) answer, not a 500", async () => {
    const usage = createClient(StorageUsageService, transportFor(env.admin));
    const ids = Array.from({ length: 70_000 }, (_, i) => BigInt(i + 1));
    const { usages } = await usage.getStorageUsage({ customerIds: ids });
    expect(usages).toHaveLength(ids.length);
    expect(usages.find((u) => u.customerId === BigInt(t.id))?.filesBytes).toBeDefined();
  });

  it("a real customer id still answers", async () => {
    const usage = createClient(StorageUsageService, transportFor(env.admin));
    const { usages } = await usage.getStorageUsage({ customerIds: [BigInt(t.id)] });
    expect(usages.map((u) => u.customerId)).toEqual([BigInt(t.id)]);
  });
});

describe("teamIds of a create", () => {
  let teamId: string;
  beforeAll(async () => {
    const res = await env.platform.http.post("/api/team/", { token: t.owner.token, body: { name: "Twice" } });
    teamId = res.body.id;
    await eventually(() => knex()("team").where({ id: teamId }).first("id"), (row) => row !== undefined, "team replicated to media");
  });
  const duplicate = { code: Code.InvalidArgument, key: "team.error.duplicateAssignment" };

  it("naming a team twice is 400 team.error.duplicateAssignment on folder create, simple upload and chunked init; nothing written", async () => {
    const teamIds = `${teamId}:true,${teamId}:false`;
    const [foldersBefore, filesBefore, sessionsBefore] = await Promise.all(["file_folder", "file", "upload_session"].map(async (table) => Number((await knex()(table).where({ customer_id: t.id }).count({ n: "*" }))[0].n)));
    expect(await failure(folders.createFileFolder({ parentId: t.rootId, name: "teams twice", teamIds }))).toEqual(duplicate);
    expect(await failure(folders.createFilteredFileFolder({ parentId: t.rootId, name: "teams twice", teamIds, quickFilterId: "x" }))).toEqual(duplicate);
    async function* upload(): AsyncGenerator<Partial<UploadFilesRequest>> {
      yield { teamIds };
      yield { body: { kind: { case: "head", value: { field: "files[]", filename: "twice.png", contentType: "image/png" } } } } as never;
      yield { body: { kind: { case: "chunk", value: new Uint8Array(png(2, 2)) } } } as never;
    }
    expect(await failure(uploads.uploadFiles(upload() as never))).toEqual(duplicate);
    expect(await failure(uploads.initUpload({ teamIds: `${teamId}:true,${teamId}:true`, upload: { name: "twice.png", size: 10n, totalChunks: 1 } }))).toEqual(duplicate);
    const after = await Promise.all(["file_folder", "file", "upload_session"].map(async (table) => Number((await knex()(table).where({ customer_id: t.id }).count({ n: "*" }))[0].n)));
    expect(after).toEqual([foldersBefore, filesBefore, sessionsBefore]);
    // Each team once still works.
    const folder = (await folders.createFileFolder({ parentId: t.rootId, name: "teams once", teamIds: `${teamId}:true` })).folder!;
    expect(folder.teamAssignments.map((a) => [a.team?.id, a.readOnly])).toEqual([[teamId, true]]);
  });

  it("more unknown teams than PostgreSQL has bind parameters (65535) are 400 team.error.notFound on folder create, not a 500", async () => {
    const teamIds = Array.from({ length: 70_000 }, () => `${randomUUID()}:false`).join(",");
    expect(await failure(folders.createFileFolder({ parentId: t.rootId, name: "many teams", teamIds }))).toEqual({ code: Code.InvalidArgument, key: "team.error.notFound" });
    expect(await knex()("file_folder").where({ customer_id: t.id, name: "many teams" }).first("id")).toBeUndefined();
    // Chunked init checks them through the shared team directory (libs/runtime): the same answer.
    const init = () => uploads.initUpload({ teamIds, upload: { name: "many-teams.png", size: 10n, totalChunks: 1 } });
    expect(await failure(init())).toEqual({ code: Code.InvalidArgument, key: "team.error.notFound" });
    // The answer names the first 20 and counts the rest, instead of echoing 70,000 ids.
    const err = (await init().catch((e: unknown) => ConnectError.from(e))) as ConnectError;
    expect(err.rawMessage).toMatch(/, and 69980 more$/);
  });
});
