// The platform (core + media behind the real gateway) for the library's HTTP tests,
// with tenants, users, files inserted through the repository (uploads are their own
// part) and a recorder of the media.file.* events.
import { coreModule } from "@signage/core";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform, type TenantUser } from "@signage/testing";
import type { EventEnvelope } from "@signage/events";
import { mediaModule } from "../src/module.js";
import { insertFile, type NewFileInput } from "../src/files/file-repository.js";

export interface Tenant {
  id: number;
  rootId: string;
  owner: TenantUser;
  editor: TenantUser;
  approver: TenantUser;
  viewer: TenantUser;
}

export async function startLibrary(prefix: string) {
  const platform: TestPlatform = await startPlatform({ modules: [coreModule, mediaModule], prefix, env: { MEDIA_VALIDITY_SWEEP_MS: "3600000" } });
  const events: EventEnvelope<any>[] = [];
  await platform.bus.subscribe({ consumer: `test.${prefix}`, types: ["media.file.*"], handler: async (e) => void events.push(e) });
  const admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const knex = platform.knexOf("media");

  async function tenant(): Promise<Tenant> {
    const customer = await createCustomer(platform.http, admin);
    const [owner, editor, approver, viewer] = await Promise.all(
      ["OWNER", "EDITOR", "APPROVER", "VIEWER"].map((role) => createUser(platform.http, admin, customer.id, role)),
    );
    let rootId: string | undefined;
    for (let i = 0; i < 100 && !rootId; i++) {
      const res = await platform.http.get("/api/v2/fileFolder", { token: viewer.token, query: { search: "parentId=NULL" } });
      rootId = res.body.content?.[0]?.id;
      if (!rootId) await new Promise((r) => setTimeout(r, 20));
    }
    if (!rootId) throw new Error("root folder never appeared");
    return { id: customer.id, rootId, owner, editor, approver, viewer };
  }

  let counter = 0;
  async function file(t: Tenant, input: Partial<NewFileInput> = {}) {
    counter++;
    return insertFile(knex, { customerId: t.id, name: `file-${counter}.png`, contentType: "image/png", size: 100, fileFolderId: t.rootId, ...input });
  }

  async function folder(t: Tenant, parentId: string, name: string, extra: Record<string, string | boolean> = {}) {
    const res = await platform.http.post("/api/fileFolder/", { token: t.editor.token, query: { parentId, name, ...extra } });
    if (res.status !== 200) throw new Error(`create folder failed: ${res.status} ${res.text}`);
    return res.body as { id: string; fileFolderPath: string };
  }

  /** Waits for events of a type matching `pred` to have arrived. */
  async function eventsOf(type: string, pred: (e: EventEnvelope<any>) => boolean = () => true, count = 1) {
    for (let i = 0; i < 100; i++) {
      const hits = events.filter((e) => e.type === type && pred(e));
      if (hits.length >= count) return hits;
      await new Promise((r) => setTimeout(r, 20));
    }
    return events.filter((e) => e.type === type && pred(e));
  }

  return { platform, http: platform.http, admin, knex, events, tenant, file, folder, eventsOf, close: () => platform.close() };
}

export type Library = Awaited<ReturnType<typeof startLibrary>>;
