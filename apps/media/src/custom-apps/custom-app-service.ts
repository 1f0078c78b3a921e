// CustomAppService: document 1 "Private apps (all operations require OWNER;
// (C) selector accepted)". Only the caller's customer's own apps.
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { requireAuth, singleTenant, tenantScope, type AuthContext, type Scope } from "@signage/auth";
import { listRpc, rowIdOf } from "@signage/runtime";
import { CustomAppSchema, type CustomAppService, type UploadMyAppPackageRequest } from "@signage/contracts/signage/media/v1/custom_app_pb";
import type { CustomAppDeps } from "./custom-app-deps.js";
import { requireKnownCustomer } from "../files/core-customer.js";
import { appNotFound, fileMissing } from "./custom-app-errors.js";
import { customAppToMessage } from "./custom-app-mapper.js";
import type { CustomAppRow } from "./custom-app-row.js";
import { customAppResource } from "./custom-app-resource.js";
import { insertApp, lockApp, updateApp } from "./custom-app-repository.js";
import { createColumns, updateColumns } from "./custom-app-rules.js";
import { packageBlobKeys } from "./package-store.js";
import { discardBlobs, scheduleBlobRemoval } from "../storage/blob-intents.js";
import { uploadPackage } from "./package-upload.js";
import { downloadPackage } from "./package-download.js";
import { DEFAULT_ZIP_LIMITS } from "./package/zip-limits.js";
import { createAppFileUrls } from "./app-file-urls.js";
import { serveAppFile } from "./custom-app-files.js";

/** The customer a new app belongs to: the caller's own unless the selector names one. */
function creationCustomer(auth: AuthContext, selector: bigint | undefined): number {
  return selector === undefined ? auth.caller.customerId : singleTenant(auth.scope);
}

/**
 * The tenants "List own apps" shows: "only this customer's apps, not the combined
 * catalog". Without the selector that is the caller's own customer (where a create
 * without the selector puts an app), for an ADMIN or a network owner as for anyone;
 * with it, the scope the selector resolved to.
 */
function listScope(auth: AuthContext, selector: bigint | undefined): Scope {
  return selector === undefined ? tenantScope(auth.caller.customerId) : auth.scope;
}

/** The upload's body parts: whatever follows the first (path/query) message, and its body if it has one. */
async function* bodyParts(first: UploadMyAppPackageRequest, rest: AsyncIterator<UploadMyAppPackageRequest>) {
  if (first.body) yield first.body;
  for (let r = await rest.next(); !r.done; r = await rest.next()) yield r.value.body;
}

/**
 * The numeric id of the path: an id no row can have (below 1, or beyond what a JS
 * number or PostgreSQL's bigint holds) is an unknown app (404), never a database error.
 */
function appId(id: bigint): number {
  return rowIdOf(id, () => appNotFound(id));
}

export function customAppService(deps: CustomAppDeps): ServiceImpl<typeof CustomAppService> {
  const { knex, store, newId } = deps;
  const limits = { ...DEFAULT_ZIP_LIMITS, ...deps.limits };
  const { signer, config } = deps.storage;
  const urls = createAppFileUrls({ signer, baseUrl: config.publicBaseUrl, windowMs: config.downloadUrlWindowMs, now: deps.now });
  // Stored keys become the URLs that serve them ("use these returned values instead of building storage URLs").
  const toMessage = (row: CustomAppRow) => urls.complete(customAppToMessage(row));

  return {
    async listMyApps(req, ctx: HandlerContext) {
      const page = await listRpc(ctx, { knex, resource: customAppResource, message: CustomAppSchema, query: req.query, scope: listScope(requireAuth(ctx), req.customerId) });
      for (const app of page.content) urls.complete(app);
      return page;
    },

    async createMyApp(req, ctx) {
      const auth = requireAuth(ctx);
      const customerId = creationCustomer(auth, req.customerId);
      if (customerId !== auth.caller.customerId) await requireKnownCustomer(ctx, deps, customerId);
      const row = await insertApp(knex, createColumns(customerId, req.app));
      return { app: toMessage(row) };
    },

    async updateMyApp(req, ctx) {
      const auth = requireAuth(ctx);
      const id = appId(req.id);
      const row = await knex.transaction(async (trx) => {
        const current = await lockApp(trx, auth.scope, id);
        if (!current) throw appNotFound(id);
        const columns = updateColumns(current, req.app);
        return Object.keys(columns).length === 0 ? current : updateApp(trx, id, columns);
      });
      return { app: toMessage(row) };
    },

    async deleteMyApp(req, ctx) {
      const auth = requireAuth(ctx);
      const id = appId(req.id);
      // The package's bytes: due for removal from the delete's commit on, deleted after it (or by the blob intent sweep).
      const disowned = await knex.transaction(async (trx) => {
        const current = await lockApp(trx, auth.scope, id);
        if (!current) throw appNotFound(id);
        await trx("custom_app").where({ id }).delete();
        return scheduleBlobRemoval(trx, Number(current.customer_id), packageBlobKeys(current));
      });
      await discardBlobs(knex, store, disowned);
      return {};
    },

    async uploadMyAppPackage(requests, ctx) {
      const auth = requireAuth(ctx);
      const iterator = requests[Symbol.asyncIterator]();
      const first = await iterator.next();
      if (first.done) throw fileMissing();
      const row = await uploadPackage({ knex, store, newId, limits, scope: auth.scope, id: appId(first.value.id), parts: bodyParts(first.value, iterator) });
      return { app: toMessage(row) };
    },

    downloadMyAppPackage(req, ctx) {
      const auth = requireAuth(ctx);
      return downloadPackage(knex, store, auth.scope, appId(req.id));
    },

    // PUBLIC: authorised by the URL's signature, not by a bearer token.
    getMyAppFile(req) {
      return serveAppFile(req, { knex, store, signer, now: deps.now }) as never;
    },
  };
}

