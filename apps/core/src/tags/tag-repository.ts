// Reads of the tag registry (tag_definition) and the tag index (tag_assignment).
// A tag exists for a customer when it was created explicitly or when any
// resource carries it; counts come from the index in one grouped query.
import type { Knex } from "knex";
import { applyScope, type Scope } from "@signage/auth";
import type { TagType } from "@signage/runtime";
import { applyTagVisibility, type TagVisibility } from "./tag-visibility.js";

export interface TagEntry {
  count: number;
  comment?: string;
}

export type TagMaps = Map<TagType, Map<string, TagEntry>>;

/** tag -> {count, comment} per requested type: visible usage counts, plus defined tags (count 0 when unused). */
export async function tagMaps(knex: Knex, scope: Scope, visibility: TagVisibility, types: readonly TagType[]): Promise<TagMaps> {
  const maps: TagMaps = new Map(types.map((t) => [t, new Map<string, TagEntry>()]));
  if (types.length === 0) return maps;
  const counts = knex("tag_assignment as a")
    .select("a.tag_type", "a.tag")
    .count({ count: "*" })
    .whereIn("a.tag_type", [...types])
    .groupBy("a.tag_type", "a.tag");
  applyScope(counts, scope, "a.customer_id");
  applyTagVisibility(counts, visibility);
  const definitions = knex("tag_definition as d").select("d.tag_type", "d.tag", "d.comment").whereIn("d.tag_type", [...types]);
  applyScope(definitions, scope, "d.customer_id");
  const [countRows, definitionRows] = await Promise.all([counts, definitions]);
  for (const row of countRows as unknown as { tag_type: TagType; tag: string; count: string | number }[]) {
    maps.get(row.tag_type)!.set(row.tag, { count: Number(row.count) });
  }
  // "Tags are per customer": over several tenants (ADMIN, network owner) one name's counts add up,
  // but a comment is shown only when every tenant defining the tag gave it the same one.
  const comments = new Map<string, Set<string | null>>();
  for (const row of definitionRows as { tag_type: TagType; tag: string; comment: string | null }[]) {
    const map = maps.get(row.tag_type)!;
    if (!map.has(row.tag)) map.set(row.tag, { count: 0 });
    const key = `${row.tag_type}\n${row.tag}`;
    comments.set(key, (comments.get(key) ?? new Set()).add(row.comment));
  }
  for (const [key, distinct] of comments) {
    const [type, tag] = key.split("\n") as [TagType, string];
    const [only] = distinct;
    if (distinct.size === 1 && only !== null) maps.get(type)!.get(tag)!.comment = only;
  }
  return maps;
}

/** How many resources of the customer carry the tag (all of them: used for refusals, not shown). */
export async function usageCount(knex: Knex | Knex.Transaction, customerId: number, tagType: TagType, tag: string): Promise<number> {
  const row = await knex("tag_assignment").where({ customer_id: customerId, tag_type: tagType, tag }).count({ count: "*" }).first();
  return Number(row?.count ?? 0);
}

export async function visibleCount(knex: Knex, customerId: number, visibility: TagVisibility, tagType: TagType, tag: string): Promise<number> {
  const qb = knex("tag_assignment as a").where({ "a.customer_id": customerId, "a.tag_type": tagType, "a.tag": tag }).count({ count: "*" });
  applyTagVisibility(qb, visibility);
  const row = await qb.first();
  return Number(row?.count ?? 0);
}

export async function findDefinition(knex: Knex | Knex.Transaction, customerId: number, tagType: TagType, tag: string) {
  return knex("tag_definition").where({ customer_id: customerId, tag_type: tagType, tag }).first<{ comment: string | null } | undefined>("comment");
}

const SUGGEST_LIMIT = 100;

function likePrefix(keyword: string): string {
  return keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) + "%";
}

/** Defined and visibly used tags of `tagType` starting with `keyword`, case-insensitively; sorted, at most 100. */
export async function suggestTags(knex: Knex, scope: Scope, visibility: TagVisibility, tagType: TagType, keyword: string): Promise<string[]> {
  const pattern = likePrefix(keyword);
  const used = knex("tag_assignment as a").distinct("a.tag").where("a.tag_type", tagType).whereRaw("lower(a.tag) like ?", [pattern]);
  applyScope(used, scope, "a.customer_id");
  applyTagVisibility(used, visibility);
  const defined = knex("tag_definition as d").distinct("d.tag").where("d.tag_type", tagType).whereRaw("lower(d.tag) like ?", [pattern]);
  applyScope(defined, scope, "d.customer_id");
  const rows = await knex.select("tag").from(defined.union(used).as("s")).orderBy("tag").limit(SUGGEST_LIMIT);
  return rows.map((r: { tag: string }) => r.tag);
}
