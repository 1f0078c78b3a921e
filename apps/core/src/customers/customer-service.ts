// CustomerService: document 2 "Customer" and "Customers".
import { Code, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { requireAuth, scopeIncludes, serviceError, singleTenant, type AuthContext } from "@signage/auth";
import { LicenseTier, type CustomerService } from "@signage/contracts/signage/core/v1/customer_pb";
import type { Knex } from "knex";
import type { CoreDeps } from "../deps.js";
import { customerToMessage, enumFromName } from "./customer-mapper.js";
import { customerColumns } from "./customer-columns.js";
import {
  checkCustomerNumbers,
  checkNetworkOwnerTier,
  checkNotSubresellerRequestByNonAdmin,
  refuseNetworkFieldsOnUpdate,
  isAdmin,
  isNetworkOwnerCaller,
  refuseAdminOnlyFields,
  refuseBlockingPlatform,
  refuseManagerOnlyFieldsOnOwnCustomer,
  validateName,
} from "./customer-rules.js";
import {
  findCustomer,
  insertCustomer,
  isCustomerNameTaken,
  ownedCustomerCount,
  updateCustomerColumns,
  type CustomerView,
} from "./customer-repository.js";
import { createCustomerRoots } from "../folders/customer-roots.js";
import { CustomerEvent, customerEventData, enqueueCustomerEvent } from "./customer-events.js";
import { listCustomers } from "./customer-list.js";
import { brandingOf } from "./customer-branding.js";
import { fillStorageUsage } from "./customer-storage.js";
import { requireParameter } from "@signage/runtime";
import { customerIdOf, rowIdOf } from "@signage/runtime";

const notFound = (id: number) => serviceError(Code.NotFound, "customer.error.notFound", `Customer ${id} not found`, { id });
// "name | string | required, globally unique": regardless of letter case ("Acme" takes "acme").
const nameTaken = (name: string) =>
  serviceError(Code.AlreadyExists, "customer.error.nameTaken", `A customer named '${name}' already exists (customer names are unique regardless of letter case)`, { name });
const forbidden = (message: string) => serviceError(Code.PermissionDenied, "auth.error.forbidden", message);

export function customerService(deps: CoreDeps): Partial<ServiceImpl<typeof CustomerService>> {
  const { knex, outbox, newId } = deps;

  async function load(auth: AuthContext, id: number): Promise<CustomerView> {
    const row = await findCustomer(knex, auth.scope, id);
    if (!row) throw notFound(id);
    return row;
  }

  /** The event goes out through the outbox, in the transaction of the change it announces. */
  async function announce(trx: Knex.Transaction, type: string, row: CustomerView) {
    await enqueueCustomerEvent(outbox, deps.tenantAccess, trx, type, customerEventData(row));
  }

  /** A change and its `customer.updated` event, committed together. */
  async function writeAndAnnounce(id: number, write: (trx: Knex.Transaction) => Promise<unknown>) {
    await knex.transaction(async (trx) => {
      await write(trx);
      await announce(trx, CustomerEvent.updated, (await findCustomer(trx, { kind: "global" }, id))!);
    });
  }

  /** A single-customer response, with its computed storage fields from media (one call). */
  async function respond(ctx: HandlerContext, row: CustomerView) {
    const customer = customerToMessage(row);
    await fillStorageUsage(ctx, deps, [customer]);
    return { customer };
  }

  /** After a change: the customer as the caller sees it. */
  async function changed(ctx: HandlerContext, auth: AuthContext, id: number) {
    return respond(ctx, await load(auth, id));
  }

  /** ADMIN, or a network owner acting on one of its members (not on itself). */
  async function loadManaged(auth: AuthContext, id: number, action: string): Promise<CustomerView> {
    const row = await load(auth, id);
    if (isAdmin(auth.caller)) return row;
    if (isNetworkOwnerCaller(auth.caller) && row.owner_subreseller_id === auth.caller.customerId) return row;
    throw forbidden(`Only ADMIN or the customer's network owner may ${action} customer ${id}`);
  }

  return {
    async listCustomers(req, ctx: HandlerContext) {
      return listCustomers(ctx, knex, req.query, deps);
    },

    async createCustomer(req, ctx) {
      const auth = requireAuth(ctx);
      const fields = req.customer ?? ({} as NonNullable<typeof req.customer>);
      const ownerCreate = !isAdmin(auth.caller);
      if (ownerCreate && !isNetworkOwnerCaller(auth.caller)) throw forbidden("Only ADMIN or a network owner may create customers");
      refuseAdminOnlyFields(auth.caller, fields);
      checkCustomerNumbers(fields);
      checkNotSubresellerRequestByNonAdmin(auth.caller, fields);
      if (ownerCreate) checkNetworkOwnerTier(fields, true);
      const name = validateName(fields.name, true)!;

      // "ownerSubresellerId (ADMIN)": an id no customer can have (outside 1..2^53-1) names no network owner either (was a 500).
      const notSubreseller = (sent: string | number) =>
        serviceError(Code.InvalidArgument, "customer.error.notSubreseller", `Customer ${sent} is not a network owner`, { ownerSubresellerId: sent });
      let ownerId: number | null = ownerCreate ? auth.caller.customerId : fields.ownerSubresellerId !== undefined ? rowIdOf(fields.ownerSubresellerId, notSubreseller) : null;
      if (!ownerCreate && ownerId !== null) {
        if (fields.createAsSubreseller) {
          throw serviceError(Code.InvalidArgument, "customer.error.subresellerCannotBeOwned", "A network owner cannot itself belong to a network owner", { ownerSubresellerId: ownerId });
        }
        const owner = await knex("customer").where({ id: ownerId }).first();
        if (!owner?.subreseller_since) throw notSubreseller(ownerId);
      }

      const id = await knex
        .transaction(async (trx) => {
          const newCustomerId = await insertCustomer(trx, {
            ...customerColumns(fields, name),
            owner_subreseller_id: ownerId,
            subreseller_since: fields.createAsSubreseller ? new Date() : null,
          });
          await createCustomerRoots(trx, newCustomerId, newId);
          await announce(trx, CustomerEvent.created, (await findCustomer(trx, { kind: "global" }, newCustomerId))!);
          return newCustomerId;
        })
        .catch((e) => {
          throw isCustomerNameTaken(e) ? nameTaken(name) : e;
        });
      return respond(ctx, (await findCustomer(knex, { kind: "global" }, id))!);
    },

    async updateCustomer(req, ctx) {
      const auth = requireAuth(ctx);
      const id = customerIdOf(req.id);
      const fields = req.customer ?? ({} as NonNullable<typeof req.customer>);
      const row = await load(auth, id);
      refuseAdminOnlyFields(auth.caller, fields);
      checkCustomerNumbers(fields);
      refuseNetworkFieldsOnUpdate(fields, { ownerSubresellerId: row.owner_subreseller_id, networkOwner: row.subreseller_since !== null });
      refuseManagerOnlyFieldsOnOwnCustomer(auth.caller, id, fields);
      refuseBlockingPlatform(row.platform, fields);
      checkNotSubresellerRequestByNonAdmin(auth.caller, fields);
      if (!isAdmin(auth.caller) && row.owner_subreseller_id === auth.caller.customerId) checkNetworkOwnerTier(fields, false, enumFromName(LicenseTier, row.license_tier));
      const name = validateName(fields.name, false);
      await writeAndAnnounce(id, (trx) => updateCustomerColumns(trx, id, customerColumns(fields, name)))
        .catch((e) => {
          throw isCustomerNameTaken(e) ? nameTaken(name ?? "") : e;
        });
      return changed(ctx, auth, id);
    },

    async deleteCustomer(req, ctx) {
      const auth = requireAuth(ctx);
      const id = customerIdOf(req.id);
      const row = await loadManaged(auth, id, "delete");
      if (row.platform || id === auth.caller.customerId) {
        throw serviceError(Code.FailedPrecondition, "customer.error.cannotDeleteOwn", "A customer cannot delete itself or the platform customer", { id });
      }
      if ((await ownedCustomerCount(knex, id)) > 0) {
        throw serviceError(Code.FailedPrecondition, "customer.error.subresellerHasCustomers", `Customer ${id} still owns customers; move or delete them first`, { id });
      }
      // Core's own rows (users, refresh tokens, API clients, folders, UI profiles) go in
      // this one statement by ON DELETE CASCADE; from now on core's directory refuses the
      // customer's tokens. Other services delete theirs (and refuse its tokens) on
      // `customer.deleted`.
      await knex.transaction(async (trx) => {
        await trx("customer").where({ id }).delete();
        await announce(trx, CustomerEvent.deleted, row);
      });
      return {};
    },

    async updateTeamAccessSettings(req, ctx) {
      const auth = requireAuth(ctx);
      const id = singleTenant(auth.scope);
      const s = req.settings;
      const columns: Record<string, boolean> = {};
      const put = (column: string, value: boolean | undefined) => {
        if (value !== undefined) columns[column] = value;
      };
      put("user_full_access_if_not_in_team", s?.userFullAccessIfNotInTeam);
      put("access_resources_without_team", s?.accessResourcesWithoutTeam);
      put("device_creation_in_root_for_team_users", s?.isDeviceAndGroupCreationEnabledInRootForTeamUsers);
      put("content_creation_in_root_for_team_users", s?.isContentAndGroupCreationEnabledInRootForTeamUsers);
      put("file_creation_in_root_for_team_users", s?.isFileAndFolderCreationEnabledInRootForTeamUsers);
      await load(auth, id);
      await writeAndAnnounce(id, (trx) => updateCustomerColumns(trx, id, columns));
      return { settings: customerToMessage(await load(auth, id)).teamAccessSettings };
    },

    async setDefaultContents(req, ctx) {
      const auth = requireAuth(ctx);
      // "?defaultEmergencyContentId=<id or null>": null removes it; absent is no request to remove it.
      const raw = requireParameter(req.defaultEmergencyContentId, "defaultEmergencyContentId");
      const id = singleTenant(auth.scope);
      await load(auth, id);
      const value = raw === "null" ? null : raw;
      await knex.transaction((trx) => updateCustomerColumns(trx, id, { default_emergency_content_id: value }));
      return respond(ctx, await load(auth, id));
    },

    async promoteAsSubreseller(req, ctx) {
      const auth = requireAuth(ctx);
      const id = customerIdOf(req.id);
      const row = await load(auth, id);
      if (row.platform) throw serviceError(Code.InvalidArgument, "customer.error.platformCustomer", "The platform customer cannot be a network owner");
      if (row.owner_subreseller_id !== null) {
        throw serviceError(Code.FailedPrecondition, "customer.error.ownedCustomerCannotOwn", `Customer ${id} belongs to a network owner; move it out first`, { id });
      }
      if (!row.subreseller_since) await writeAndAnnounce(id, (trx) => trx("customer").where({ id }).update({ subreseller_since: new Date() }));
      return changed(ctx, auth, id);
    },

    async removeSubresellerPrivilege(req, ctx) {
      const auth = requireAuth(ctx);
      const id = customerIdOf(req.id);
      await load(auth, id);
      // "Demote network owner; refused while it owns customers"
      const owned = await ownedCustomerCount(knex, id);
      if (owned > 0) {
        throw serviceError(Code.FailedPrecondition, "customer.error.subresellerHasCustomers", `Customer ${id} still owns ${owned} customer(s)`, { id, owned });
      }
      await writeAndAnnounce(id, (trx) => trx("customer").where({ id }).update({ subreseller_since: null }));
      return changed(ctx, auth, id);
    },

    async moveToSubreseller(req, ctx) {
      const auth = requireAuth(ctx);
      const id = customerIdOf(req.id);
      const row = await load(auth, id);
      if (row.platform) throw serviceError(Code.InvalidArgument, "customer.error.platformCustomer", "The platform customer cannot belong to a network owner");
      let ownerId: number | null = null;
      if (req.subresellerId !== undefined) {
        ownerId = customerIdOf(req.subresellerId);
        const owner = await knex("customer").where({ id: ownerId }).first();
        if (!owner) throw notFound(ownerId);
        // A network owner cannot be owned (by another or by itself): said first, as it is true of any target.
        if (row.subreseller_since) {
          throw serviceError(Code.FailedPrecondition, "customer.error.subresellerCannotBeOwned", `Customer ${id} is a network owner and cannot be owned`, { id });
        }
        if (!owner.subreseller_since || ownerId === id) {
          throw serviceError(Code.InvalidArgument, "customer.error.notSubreseller", `Customer ${ownerId} is not a network owner`, { subresellerId: ownerId });
        }
      }
      await writeAndAnnounce(id, (trx) => trx("customer").where({ id }).update({ owner_subreseller_id: ownerId }));
      return changed(ctx, auth, id);
    },

    async getBranding(req, ctx) {
      const auth = requireAuth(ctx);
      const id = auth.scope.kind === "tenants" ? auth.scope.customerIds[0] : auth.caller.customerId;
      if (!scopeIncludes(auth.scope, id)) throw notFound(id);
      const row = await load(auth, id);
      // "writes are not exposed": kits are stored by operators; a customer without any reads an empty kit list.
      return { brandingGuideline: brandingOf(row.branding_guideline) };
    },

    async listTenantDirectory() {
      const rows = await knex("customer").select("id", "owner_subreseller_id", "subreseller_since", "restricted", "expiration_date");
      return {
        entries: rows.map((r) => ({
          customerId: BigInt(r.id),
          ownerSubresellerId: r.owner_subreseller_id === null ? undefined : BigInt(r.owner_subreseller_id),
          networkOwner: r.subreseller_since !== null,
          restricted: r.restricted,
          expirationDate: r.expiration_date ? BigInt((r.expiration_date as Date).getTime()) : undefined,
        })),
      };
    },
  };
}
