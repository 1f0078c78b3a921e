import type { Knex } from "knex";

export interface TeamRow { id: string; name: string | null }
export interface FolderRow { id: string; customerId: number; parentId: string | null; path: string[]; name: string | null }
export interface ContentRow { id: string; name: string | null; kind: string | null; updatedAtUs: number | null }
export interface AssignmentRow { resourceId: string; teamId: string; readOnly: boolean }
export interface ItemRow {
  id: string;
  customerId: number;
  name: string | null;
  comment: string | null;
  weight: number | null;
  score: number | null;
  ratio: number | null;
  price: string | null;
  enabled: boolean | null;
  /** Microseconds since the epoch: sub-millisecond parts check "compared as ms". */
  createdDateUs: number | null;
  lastSeenMs: number | null;
  status: string | null;
  tags: string[] | null;
  /** undefined = SQL NULL; null = JSON null. */
  info: unknown;
  uid: string | null;
  bigRef: string | null;
  secret: string | null;
  contentId: string | null;
  folderId: string | null;
  folderPath: string[] | null;
}

export interface Dataset {
  teams: TeamRow[];
  folders: FolderRow[];
  contents: ContentRow[];
  items: ItemRow[];
  assignments: AssignmentRow[];
}

/** Small pools so that random filters hit rows; they include every character with a meaning. */
export const NAME_PARTS = ["ab", "Ab", "AB", "b%", "_x", "c\\", "é", "z", " ", ",", "|", "(", ")", ":", "=", "≠", "∈", "NULL", "漢", "'"];
export const TAG_POOL = ["red", "blue", "Red", "x,y", "a|b", "%", "", "NULL"];
export const UUID_POOL = [
  "00000000-0000-4000-8000-000000000001",
  "00000000-0000-4000-8000-00000000000a",
  "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f",
];
export const JSON_POOL: unknown[] = [
  undefined,
  null,
  {},
  [],
  { a: "x" },
  { a: "y", n: 5 },
  { a: "Xy%", b: true },
  { nested: { c: "deep" } },
  { arr: [1, 2] },
  { a: null },
  { n: -12, nested: { c: "x", d: 1 } },
];
export const BASE_US = 1_700_000_000_000_000;

export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateDataset(seed: number, itemCount = 150): Dataset {
  const random = mulberry32(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];
  const maybe = <T>(value: () => T, nullChance = 0.15): T | null => (random() < nullChance ? null : value());
  const teams: TeamRow[] = Array.from({ length: 6 }, (_, i) => ({ id: `t${i + 1}`, name: maybe(() => pick(["Ops", "ops", "Sales", "a,b"])) }));
  const folders: FolderRow[] = [];
  for (let i = 1; i <= 12; i++) {
    const parent = i <= 2 ? null : folders[Math.floor(random() * (i - 1))];
    const id = `f${i}`;
    folders.push({ id, customerId: parent?.customerId ?? i, parentId: parent?.id ?? null, path: [...(parent?.path ?? []), id], name: parent ? pick(["Lobby", "lobby", "Floor 1"]) : null });
  }
  const contents: ContentRow[] = Array.from({ length: 8 }, (_, i) => ({
    id: `c${i + 1}`,
    name: maybe(() => pick(["Menu", "menu", "Promo%", "News"])),
    kind: maybe(() => pick(["SLIDE", "COMPLEX"])),
    updatedAtUs: maybe(() => BASE_US + Math.floor(random() * 5) * 1_000_000 + Math.floor(random() * 3) * 400),
  }));
  const items: ItemRow[] = [];
  const assignments: AssignmentRow[] = [];
  for (let i = 0; i < itemCount; i++) {
    const folder = maybe(() => pick(folders), 0.1);
    const id = `i${String(i).padStart(3, "0")}`;
    items.push({
      id,
      customerId: folder?.customerId ?? 1,
      name: maybe(() => Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(NAME_PARTS)).join(""), 0.1),
      comment: maybe(() => pick(["", "hello", "Hello world", "50%"]), 0.4),
      weight: maybe(() => Math.floor(random() * 7) - 3),
      score: maybe(() => pick([0, 1, -1, 2 ** 40, -(2 ** 40), 123456789012])),
      ratio: maybe(() => pick([0, 0.5, -0.25, 1.5, 3, 0.1])),
      price: maybe(() => pick(["0", "0.10", "9.99", "-1.5", "100"])),
      enabled: maybe(() => random() < 0.5),
      createdDateUs: maybe(() => BASE_US + Math.floor(random() * 6) * 1_000_000 + pick([0, 1, 999, 1000, 1500])),
      lastSeenMs: maybe(() => 1_700_000_000_000 + Math.floor(random() * 6)),
      status: maybe(() => pick(["ONLINE", "OFFLINE", "UNKNOWN"])),
      tags: maybe(() => TAG_POOL.filter(() => random() < 0.3)),
      info: pick(JSON_POOL),
      uid: maybe(() => pick(UUID_POOL), 0.4),
      bigRef: maybe(() => pick(["1", "2", "-3", "9007199254740993"]), 0.4),
      secret: maybe(() => "s"),
      contentId: maybe(() => pick(contents).id, 0.3),
      folderId: folder?.id ?? null,
      folderPath: folder ? folder.path : null,
    });
    for (const team of teams) {
      if (random() < 0.2) assignments.push({ resourceId: id, teamId: team.id, readOnly: random() < 0.5 });
    }
  }
  return { teams, folders, contents, items, assignments };
}

/** ISO text with microseconds, exact (JS Date keeps only ms). */
export function isoFromMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const micros = us - ms * 1000;
  return new Date(ms).toISOString().replace("Z", `${String(micros).padStart(3, "0")}Z`);
}

export async function loadDataset(knex: Knex, data: Dataset): Promise<void> {
  await knex("team").insert(data.teams);
  for (const folder of data.folders) {
    await knex("folder").insert({ id: folder.id, customer_id: folder.customerId, parent_id: folder.parentId, path: folder.path, name: folder.name });
  }
  await knex("content").insert(
    data.contents.map((c) => ({ id: c.id, name: c.name, kind: c.kind, updated_at: c.updatedAtUs === null ? null : isoFromMicros(c.updatedAtUs) })),
  );
  await knex("item").insert(
    data.items.map((item) => ({
      id: item.id,
      customer_id: item.customerId,
      name: item.name,
      comment: item.comment,
      weight: item.weight,
      score: item.score,
      ratio: item.ratio,
      price: item.price,
      enabled: item.enabled,
      created_date: item.createdDateUs === null ? null : isoFromMicros(item.createdDateUs),
      last_seen_ms: item.lastSeenMs,
      status: item.status,
      tags: item.tags,
      info: item.info === undefined ? null : JSON.stringify(item.info),
      uid: item.uid,
      big_ref: item.bigRef,
      secret: item.secret,
      content_id: item.contentId,
      folder_id: item.folderId,
      folder_path: item.folderPath,
    })),
  );
  if (data.assignments.length > 0) {
    await knex("item_team_assignment").insert(data.assignments.map((a) => ({ resource_id: a.resourceId, team_id: a.teamId, read_only: a.readOnly })));
  }
}
