// `quickFilterId` on a list of another service: the list (listRpc with
// coreQuickFilters) asks core to compile the filter (CompileQuickFilter, on
// behalf of the caller) and ANDs it with `search`. Proven through the real
// gateway with a stand-in "media" module whose folder list runs over a small
// file table (the real file list arrives with the media files issue).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@connectrpc/connect";
import { createInMemoryTenantDirectory, readErrorDetail, requireAuth } from "@signage/auth";
import { FileFolderSchema, FileFolderService } from "@signage/contracts/signage/media/v1/file_folder_pb";
import { FilteredEntityType, QuickFilterService } from "@signage/contracts/signage/core/v1/quick_filter_pb";
import { defineResource, parseFilter } from "@signage/query";
import { coreQuickFilters, listRpc, type ServiceModule } from "@signage/runtime";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TenantUser, type TestPlatform } from "@signage/testing";
import { createInMemoryTransport } from "@signage/platform";
import { coreModule } from "../src/module.js";
import { criteriaToFilter } from "../src/quick-filters/criteria.js";

const testFiles = defineResource({
  table: "qf_test_file",
  alias: "f",
  tenantColumn: "customer_id",
  defaultSort: ["name,asc"],
  fields: {
    id: { type: "id", sqlType: "uuid" },
    name: { type: "string" },
    type: { type: "string" },
    tags: { type: "stringArray" },
    validFrom: { type: "timestamp" },
    validTo: { type: "timestamp" },
    customerId: { type: "number", sqlType: "bigint", column: "customer_id" },
  },
  folder: { parentField: "fileFolderId", pathField: "fileFolderPath", idType: "uuid" },
});

/** A "media" service whose folder list shows test files and applies quick filters of type FILE. */
const standInMedia: ServiceModule = {
  name: "media",
  async create(ctx) {
    await ctx.knex.schema.createTable("qf_test_file", (t) => {
      t.uuid("id").primary();
      t.bigInteger("customer_id").notNullable();
      t.text("name").notNullable();
      t.text("type");
      t.specificType("tags", "text[]").notNullable().defaultTo("{}");
      t.timestamp("valid_from", { useTz: true });
      t.timestamp("valid_to", { useTz: true });
      t.uuid("file_folder_id");
      t.specificType("file_folder_path", "uuid[]").notNullable().defaultTo("{}");
    });
    const quickFilters = coreQuickFilters(ctx.peers, "FILE");
    return {
      register(router) {
        router.service(FileFolderService, {
          listFileFolders: (req, hctx) =>
            listRpc(hctx, { knex: ctx.knex, resource: testFiles, message: FileFolderSchema, query: req.query, scope: requireAuth(hctx).scope, quickFilters }),
        });
      },
      directory: createInMemoryTenantDirectory(),
    };
  },
};

let platform: TestPlatform;
let admin: string;
let customerA: number;
let editorA: TenantUser;
let viewerA: TenantUser;
let editorB: TenantUser;
const folder = randomUUID();
const sub = randomUUID();
const DAY = 86_400_000;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, standInMedia], prefix: "core_qf_lists_test" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  customerA = (await createCustomer(platform.http, admin, { name: "QFL A" })).id;
  const customerB = (await createCustomer(platform.http, admin, { name: "QFL B" })).id;
  editorA = await createUser(platform.http, admin, customerA, "EDITOR");
  viewerA = await createUser(platform.http, admin, customerA, "VIEWER");
  editorB = await createUser(platform.http, admin, customerB, "EDITOR");
  const now = Date.now();
  const file = (name: string, extra: Record<string, unknown> = {}) => ({ id: randomUUID(), customer_id: customerA, name, tags: [], ...extra });
  await platform.knexOf("media")("qf_test_file").insert([
    file("poster-summer.png", { tags: ["summer", "poster"], type: "IMAGE", file_folder_id: folder, file_folder_path: [folder] }),
    file("poster-deep.png", { tags: ["summer"], type: "IMAGE", file_folder_id: sub, file_folder_path: [folder, sub] }),
    file("poster-expired.png", { tags: ["summer"], type: "IMAGE", valid_to: new Date(now - DAY), file_folder_id: folder, file_folder_path: [folder] }),
    file("poster-future.png", { tags: ["summer"], type: "IMAGE", valid_from: new Date(now + DAY), file_folder_id: folder, file_folder_path: [folder] }),
    file("poster-window.png", { tags: ["summer"], type: "IMAGE", valid_from: new Date(now - DAY), valid_to: new Date(now + DAY), file_folder_id: folder, file_folder_path: [folder] }),
    file("clip.mp4", { tags: ["summer"], type: "VIDEO", file_folder_id: folder, file_folder_path: [folder] }),
    { ...file("other-tenant.png", { tags: ["summer"], type: "IMAGE" }), customer_id: customerB },
  ]);
});
afterAll(() => platform?.close());

async function quickFilter(token: string, filteredEntityType: string, criteria: Record<string, unknown>) {
  const res = await platform.http.post("/api/quickFilter/", { token, body: { name: `f-${randomUUID()}`, filteredEntityType, criteria } });
  if (res.status !== 200) throw new Error(res.text);
  return res.body.id as string;
}

const names = async (token: string, query: Record<string, string>) => {
  const res = await platform.http.get("/api/v2/fileFolder", { token, query: { size: "100", ...query } });
  expect(res.status, res.text).toBe(200);
  return (res.body.content as { name: string }[]).map((f) => f.name);
};

describe("quickFilterId on lists", () => {
  it("'quickFilterId (saved filter, combined with search by AND)': criteria compile to the list conventions and apply through the list", async () => {
    const id = await quickFilter(editorA.token, "FILE", { tags: ["summer"], type: "IMAGE", folderId: folder, searchRecursively: true });
    expect(await names(viewerA.token, { quickFilterId: id })).toEqual([
      "poster-deep.png",
      "poster-expired.png",
      "poster-future.png",
      "poster-summer.png",
      "poster-window.png",
    ]);
    // ANDed with search.
    expect(await names(viewerA.token, { quickFilterId: id, search: "name:deep|name:window" })).toEqual(["poster-deep.png", "poster-window.png"]);
    // Direct folder only without searchRecursively.
    const direct = await quickFilter(editorA.token, "FILE", { folderId: folder, search: "type=VIDEO" });
    expect(await names(viewerA.token, { quickFilterId: direct })).toEqual(["clip.mp4"]);
  });

  it("FILE 'validFileOnly, isUndefinedValidityValid': only files inside their validity window; open windows count unless isUndefinedValidityValid is false", async () => {
    const valid = await quickFilter(editorA.token, "FILE", { tags: ["poster"], validFileOnly: true });
    expect(await names(viewerA.token, { quickFilterId: valid })).toEqual(["poster-summer.png"]);
    const all = await quickFilter(editorA.token, "FILE", { search: "name^poster", validFileOnly: true });
    expect(await names(viewerA.token, { quickFilterId: all })).toEqual(["poster-deep.png", "poster-summer.png", "poster-window.png"]);
    const strict = await quickFilter(editorA.token, "FILE", { search: "name^poster", validFileOnly: true, isUndefinedValidityValid: false });
    expect(await names(viewerA.token, { quickFilterId: strict })).toEqual(["poster-window.png"]);
  });

  it("unknown, malformed or another customer's quickFilterId is 400 quickFilter.error.notFound; another entity type's filter is refused", async () => {
    const foreign = await quickFilter(editorB.token, "FILE", {});
    for (const id of [randomUUID(), "nope", foreign]) {
      const res = await platform.http.get("/api/v2/fileFolder", { token: viewerA.token, query: { quickFilterId: id } });
      expect([res.status, res.body.key], id).toEqual([400, "quickFilter.error.notFound"]);
    }
    const device = await quickFilter(editorA.token, "DEVICE", {});
    const mismatch = await platform.http.get("/api/v2/fileFolder", { token: viewerA.token, query: { quickFilterId: device } });
    expect([mismatch.status, mismatch.body.key]).toEqual([400, "quickFilter.error.entityTypeMismatch"]);
    // The quick filter list itself takes no quickFilterId.
    const self = await platform.http.get("/api/v2/quickFilter", { token: viewerA.token, query: { quickFilterId: device } });
    expect([self.status, self.body.key]).toEqual([400, "quickFilter.error.notFound"]);
  });

  it("CompileQuickFilter (internal RPC, no REST route) answers filter language text that parses back", async () => {
    const id = await quickFilter(editorA.token, "FILE", { tags: ["a#b.c"], name: "x|y,z", type: ["IMAGE", "VIDEO"], folderId: folder });
    const core = platform.running.find((m) => m.name === "core")!;
    const client = createClient(
      QuickFilterService,
      createInMemoryTransport(core.service.routes, {
        interceptors: core.service.interceptors,
        clientInterceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${viewerA.token}`), next(req))],
      }),
    );
    const res = await client.compileQuickFilter({ quickFilterId: id, expectedEntityType: FilteredEntityType.FILE });
    expect(res.filteredEntityType).toBe(FilteredEntityType.FILE);
    expect(parseFilter(res.search)).toMatchObject(criteriaToFilter("FILE", { tags: ["a#b.c"], name: "x|y,z", type: ["IMAGE", "VIDEO"], folderId: folder })!);
    const err = await client.compileQuickFilter({ quickFilterId: id, expectedEntityType: FilteredEntityType.CONTENT }).catch((e) => e);
    expect(readErrorDetail(err)?.key).toBe("quickFilter.error.entityTypeMismatch");
    expect((await platform.http.get("/api/quickFilter/compile", { token: viewerA.token })).status).not.toBe(200);
  });
});
