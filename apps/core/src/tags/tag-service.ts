// TagService: document 2 "Tag" and the tag rows of "Teams, tags, users, quick filters".
import { Code, type ServiceImpl } from "@connectrpc/connect";
import type { JsonObject } from "@bufbuild/protobuf";
import { requireAuth, serviceError, singleTenant, type AuthContext } from "@signage/auth";
import type { TagService } from "@signage/contracts/signage/core/v1/tag_pb";
import { tagFormatProblem, type TagType, missingParameter } from "@signage/runtime";
import type { Knex } from "knex";
import { isUniqueViolation } from "../customers/customer-repository.js";
import { findDefinition, suggestTags, tagMaps, usageCount, visibleCount } from "./tag-repository.js";
import { selectedTagTypes, TAG_MAP_KEYS, tagTypeEnum, tagTypeName } from "./tag-types.js";
import type { TagVisibilityResolver } from "./tag-visibility.js";

export interface TagServiceDeps {
  knex: Knex;
  /** The caller's team visibility for counts (restricted users). */
  visibility: TagVisibilityResolver;
}

/** Tags are per customer: writes land in the one selected tenant (ADMIN without selector: its own). */
function targetCustomer(auth: AuthContext): number {
  return auth.scope.kind === "global" ? auth.caller.customerId : singleTenant(auth.scope);
}

function checkTagFormat(tag: string | undefined): string {
  const problem = tagFormatProblem(tag);
  if (problem) throw serviceError(Code.InvalidArgument, "tag.error.invalidFormat", problem, { tag: tag ?? null });
  return tag!;
}

const notFound = (tag: string, tagType: TagType) => serviceError(Code.NotFound, "tag.error.notFound", `Tag '${tag}' of type ${tagType} not found`, { tag, tagType });

export function tagService(deps: TagServiceDeps): ServiceImpl<typeof TagService> {
  const { knex } = deps;

  /** A tag exists when defined, or when any resource of the customer carries it. */
  async function existing(customerId: number, tagType: TagType, tag: string) {
    const [definition, used] = await Promise.all([findDefinition(knex, customerId, tagType, tag), usageCount(knex, customerId, tagType, tag)]);
    return { definition, used, exists: definition !== undefined || used > 0 };
  }

  return {
    async listTags(req, ctx) {
      const auth = requireAuth(ctx);
      const types = selectedTagTypes(req.select);
      const maps = await tagMaps(knex, auth.scope, await deps.visibility(auth), types);
      const res: Record<string, JsonObject> = {};
      for (const [type, entries] of maps) {
        const obj: JsonObject = {};
        for (const [tag, entry] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
          obj[tag] = entry.comment === undefined ? { count: entry.count } : { count: entry.count, comment: entry.comment };
        }
        res[TAG_MAP_KEYS[type]] = obj;
      }
      return res;
    },

    async suggestTags(req, ctx) {
      const auth = requireAuth(ctx);
      // "GET `/api/tag/suggest?keyword=<prefix>&entity=<TYPE>`": both are required; no keyword is
      // no "every tag of the type" (GET /api/tag lists those).
      if (!req.keyword) throw missingParameter("keyword");
      const tagType = tagTypeName(req.entity, "entity");
      return { tags: await suggestTags(knex, auth.scope, await deps.visibility(auth), tagType, req.keyword) };
    },

    async createTag(req, ctx) {
      const auth = requireAuth(ctx);
      const tagType = tagTypeName(req.tagType);
      const tag = checkTagFormat(req.tag?.tag);
      const customerId = targetCustomer(auth);
      const comment = req.tag?.comment ?? null;
      if ((await existing(customerId, tagType, tag)).exists) {
        throw serviceError(Code.AlreadyExists, "tag.error.alreadyExists", `Tag '${tag}' of type ${tagType} already exists`, { tag, tagType });
      }
      try {
        await knex("tag_definition").insert({ customer_id: customerId, tag_type: tagType, tag, comment });
      } catch (e) {
        if (isUniqueViolation(e)) throw serviceError(Code.AlreadyExists, "tag.error.alreadyExists", `Tag '${tag}' of type ${tagType} already exists`, { tag, tagType });
        throw e;
      }
      return { tag: { tag, comment: comment ?? undefined, tagType: tagTypeEnum(tagType), count: 0n } };
    },

    async updateTag(req, ctx) {
      const auth = requireAuth(ctx);
      // A tag is never blank ("must not start with `-` or whitespace"): an empty `tag` is a missing one.
      if (!req.tag) throw missingParameter("tag");
      const tagType = tagTypeName(req.tagType);
      const tag = req.tag;
      const customerId = targetCustomer(auth);
      if (!(await existing(customerId, tagType, tag)).exists) throw notFound(tag, tagType);
      const comment = req.body?.comment ?? null;
      // A tag only in use gets its registry row now, to hold the comment.
      await knex("tag_definition")
        .insert({ customer_id: customerId, tag_type: tagType, tag, comment })
        .onConflict(["customer_id", "tag_type", "tag"])
        .merge({ comment });
      const count = await visibleCount(knex, customerId, await deps.visibility(auth), tagType, tag);
      return { tag: { tag, comment: comment ?? undefined, tagType: tagTypeEnum(tagType), count: BigInt(count) } };
    },

    async deleteTag(req, ctx) {
      const auth = requireAuth(ctx);
      // A tag is never blank ("must not start with `-` or whitespace"): an empty `tag` is a missing one.
      if (!req.tag) throw missingParameter("tag");
      const tagType = tagTypeName(req.tagType);
      const tag = req.tag;
      const customerId = targetCustomer(auth);
      await knex.transaction(async (trx) => {
        // Lock the registry row, then check usage: "DELETE ... (refused while in use)".
        const definition = await trx("tag_definition").where({ customer_id: customerId, tag_type: tagType, tag }).forUpdate().first("tag");
        if (await usageCount(trx, customerId, tagType, tag)) {
          throw serviceError(Code.FailedPrecondition, "tag.error.inUse", `Tag '${tag}' is in use and cannot be deleted`, { tag, tagType });
        }
        if (!definition) throw notFound(tag, tagType);
        await trx("tag_definition").where({ customer_id: customerId, tag_type: tagType, tag }).delete();
      });
      return {};
    },
  };
}
