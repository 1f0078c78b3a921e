// UserInterfaceProfileService: document 3 "UI profile" and "UI profiles (OWNER; base
// /api/v2/userInterfaceProfile)". Profiles belong to one customer; users carry at most one.
import { Code, type ServiceImpl } from "@connectrpc/connect";
import { applyScope, requireAuth, serviceError, singleTenant, type AuthContext } from "@signage/auth";
import { listRpc } from "@signage/runtime";
import { UserInterfaceProfileSchema, type UserInterfaceProfileService } from "@signage/contracts/signage/core/v1/ui_profile_pb";
import type { Knex } from "knex";
import { uiProfileResource } from "./ui-profile-resource.js";
import { uiProfileToMessage, type UiProfileRow } from "./ui-profile-row.js";
import { emailList, rulesDocument, validateProfileName } from "./ui-profile-rules.js";
import { rowIdOf } from "@signage/runtime";

const notFound = (id: number | string) =>
  serviceError(Code.NotFound, "userInterfaceProfile.error.notFound", `UI profile ${id} not found`, { id });

export function uiProfileService(knex: Knex): Partial<ServiceImpl<typeof UserInterfaceProfileService>> {
  async function load(db: Knex | Knex.Transaction, auth: AuthContext, id: number): Promise<UiProfileRow> {
    const row = await applyScope(db("ui_profile").where({ id }), auth.scope).first();
    if (!row) throw notFound(id);
    return row;
  }

  return {
    async listUserInterfaceProfiles(req, ctx) {
      return listRpc(ctx, { knex, resource: uiProfileResource, message: UserInterfaceProfileSchema, query: req.query, scope: requireAuth(ctx).scope });
    },

    async createUserInterfaceProfile(req, ctx) {
      const auth = requireAuth(ctx);
      // Without customerId: the caller's own customer; with it: the one tenant it selects.
      const customerId = req.customerId === undefined ? auth.caller.customerId : singleTenant(auth.scope);
      const name = validateProfileName(req.profile?.name, true)!;
      const rules = rulesDocument(req.profile?.hiddenUiElementRules, true)!;
      if (!(await knex("customer").where({ id: customerId }).first("id"))) {
        throw serviceError(Code.NotFound, "customer.error.notFound", `Customer ${customerId} not found`, { id: customerId });
      }
      const [row] = await knex("ui_profile")
        .insert({ customer_id: customerId, name, comment: req.profile?.comment ?? null, hidden_ui_element_rules: JSON.stringify(rules) })
        .returning("*");
      return { profile: uiProfileToMessage(row) };
    },

    async updateUserInterfaceProfile(req, ctx) {
      const auth = requireAuth(ctx);
      const id = rowIdOf(req.id, notFound);
      const columns: Record<string, unknown> = {};
      const name = validateProfileName(req.profile?.name, false);
      if (name !== undefined) columns.name = name;
      if (req.profile?.comment !== undefined) columns.comment = req.profile.comment;
      // "omitting the rules keeps them, sending them replaces the whole document"
      const rules = rulesDocument(req.profile?.hiddenUiElementRules, false);
      if (rules !== undefined) columns.hidden_ui_element_rules = JSON.stringify(rules);
      const row = await knex.transaction(async (trx) => {
        await load(trx, auth, id);
        if (Object.keys(columns).length > 0) await trx("ui_profile").where({ id }).update(columns);
        return load(trx, auth, id);
      });
      return { profile: uiProfileToMessage(row) };
    },

    async deleteUserInterfaceProfile(req, ctx) {
      const auth = requireAuth(ctx);
      const id = rowIdOf(req.id, notFound);
      await load(knex, auth, id);
      // Users of the profile are left without one (ON DELETE SET NULL).
      await knex("ui_profile").where({ id }).delete();
      return {};
    },

    async assignUserInterfaceProfile(req, ctx) {
      const auth = requireAuth(ctx);
      const id = rowIdOf(req.id, notFound);
      const assign = emailList(req.assignUserIds);
      const remove = emailList(req.removeUserIds);
      const both = assign.filter((e) => remove.some((r) => r.toLowerCase() === e.toLowerCase()));
      if (both.length > 0) {
        throw serviceError(Code.InvalidArgument, "userInterfaceProfile.error.conflictingUsers", `Users both assigned and removed: ${both.join(", ")}`, { emails: both.join(",") });
      }
      await knex.transaction(async (trx) => {
        const profile = await load(trx, auth, id);
        const named = [...assign, ...remove];
        if (named.length === 0) return;
        // Only users of the profile's own customer can be named.
        const found = await trx("app_user")
          .where({ customer_id: profile.customer_id })
          .whereRaw("lower(email) = ANY(?)", [named.map((e) => e.toLowerCase())])
          .select("id", "email");
        const known = new Set(found.map((u: { email: string }) => u.email.toLowerCase()));
        const unknown = named.filter((e) => !known.has(e.toLowerCase()));
        if (unknown.length > 0) {
          throw serviceError(Code.InvalidArgument, "userInterfaceProfile.error.userNotFound", `Unknown users of this customer: ${unknown.join(", ")}`, { emails: unknown.join(",") });
        }
        const idsOf = (emails: string[]) => {
          const wanted = new Set(emails.map((e) => e.toLowerCase()));
          return found.filter((u: { email: string }) => wanted.has(u.email.toLowerCase())).map((u: { id: string }) => u.id);
        };
        if (assign.length > 0) await trx("app_user").whereIn("id", idsOf(assign)).update({ ui_profile_id: id });
        // Removing only detaches users that carry this profile.
        if (remove.length > 0) await trx("app_user").whereIn("id", idsOf(remove)).where({ ui_profile_id: id }).update({ ui_profile_id: null });
      });
      return {};
    },
  };
}
