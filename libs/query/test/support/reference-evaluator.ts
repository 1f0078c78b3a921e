import type { FilterComparison, FilterNode } from "../../src/index.js";
import type { Dataset } from "./fixture-data.js";

/**
 * An independent, in-memory reading of the documented filter semantics over the fixture
 * dataset. It shares no code with the compiler: the fuzz tests compare the two.
 */
type Kind =
  | "text" | "enum" | "int" | "decimal" | "bool" | "tsUs" | "epochMs"
  | "idText" | "uuid" | "idBigint" | "textArray" | "json";

type Obj = Record<string, unknown>;
type RefField =
  | { kind: Kind; get: (row: Obj) => unknown; enumValues?: string[] }
  | { kind: "relation"; follow: (row: Obj, data: Dataset) => Obj[]; target: string };

function schema(data: Dataset): Record<string, Record<string, RefField>> {
  const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((row) => [row.id, row as unknown as Obj]));
  const contents = byId(data.contents);
  const folders = byId(data.folders);
  const teams = byId(data.teams);
  const one = (map: Map<string, Obj>, key: string) => (row: Obj) => {
    const id = row[key] as string | null;
    return id === null ? [] : [map.get(id)!];
  };
  const field = (kind: Kind, key: string, enumValues?: string[]): RefField => ({ kind, get: (row) => row[key], enumValues });
  return {
    item: {
      id: field("idText", "id"),
      customerId: field("int", "customerId"),
      name: field("text", "name"),
      comment: field("text", "comment"),
      weight: field("int", "weight"),
      score: field("int", "score"),
      ratio: field("decimal", "ratio"),
      price: { kind: "decimal", get: (row) => (row.price === null ? null : Number(row.price)) },
      enabled: field("bool", "enabled"),
      createdDate: field("tsUs", "createdDateUs"),
      lastSeen: field("epochMs", "lastSeenMs"),
      status: field("enum", "status", ["ONLINE", "OFFLINE", "UNKNOWN"]),
      tags: field("textArray", "tags"),
      info: field("json", "info"),
      uid: field("uuid", "uid"),
      bigRef: field("idBigint", "bigRef"),
      secret: field("text", "secret"),
      tagCount: { kind: "int", get: (row) => ((row.tags as string[] | null) ?? []).length },
      folderId: field("idText", "folderId"),
      folderPath: field("textArray", "folderPath"),
      content: { kind: "relation", target: "content", follow: one(contents, "contentId") },
      folder: { kind: "relation", target: "folder", follow: one(folders, "folderId") },
      teamAssignments: {
        kind: "relation",
        target: "assignment",
        follow: (row) => data.assignments.filter((a) => a.resourceId === row.id) as unknown as Obj[],
      },
    },
    content: {
      id: field("idText", "id"),
      name: field("text", "name"),
      kind: field("enum", "kind", ["SLIDE", "COMPLEX"]),
      updatedAt: field("tsUs", "updatedAtUs"),
    },
    folder: {
      id: field("idText", "id"),
      name: field("text", "name"),
      parentId: field("idText", "parentId"),
      folderPath: field("textArray", "path"),
    },
    assignment: {
      readOnly: field("bool", "readOnly"),
      team: { kind: "relation", target: "team", follow: one(teams, "teamId") },
    },
    team: { id: field("idText", "id"), name: field("text", "name") },
  };
}

/** Fields declared with a relation path stand for that path. */
const PATH_FIELDS: Record<string, string> = { contentName: "content.name", teamIds: "teamAssignments.team.id" };

export class ReferenceEvaluator {
  private readonly entities: Record<string, Record<string, RefField>>;

  constructor(private readonly data: Dataset) {
    this.entities = schema(data);
  }

  /** Ids of the items the filter matches, sorted. */
  matchingIds(node: FilterNode): string[] {
    return this.data.items.filter((item) => this.holds(node, item as unknown as Obj)).map((item) => item.id).sort();
  }

  holds(node: FilterNode, row: Obj): boolean {
    if (node.kind === "and") return node.children.every((child) => this.holds(child, row));
    if (node.kind === "or") return node.children.some((child) => this.holds(child, row));
    return this.comparison(node, row);
  }

  private comparison(node: FilterComparison, root: Obj): boolean {
    const [first, ...rest] = node.field.split(".");
    const segments = [...(PATH_FIELDS[first] ?? first).split("."), ...rest];
    let rows = [root];
    let entity = "item";
    let index = 0;
    let leaf: RefField | null = null;
    for (; index < segments.length; index++) {
      const field = this.entities[entity][segments[index]];
      if (!field) throw new Error(`reference: unknown ${node.field}`);
      if (field.kind === "relation") {
        rows = rows.flatMap((row) => field.follow(row, this.data));
        entity = field.target;
        continue;
      }
      leaf = field;
      index++;
      break;
    }
    const jsonPath = segments.slice(index);
    if (leaf === null) {
      // A path ending at a relation: =NULL is "no related row".
      return node.value.kind === "null" ? rows.length === 0 : rows.length > 0;
    }
    const kind: Kind = leaf.kind === "json" && jsonPath.length > 0 ? "text" : (leaf.kind as Kind);
    const read = (row: Obj) => {
      const value = (leaf as { get: (row: Obj) => unknown }).get(row);
      return jsonPath.length > 0 ? jsonbTextAt(value, jsonPath) : value;
    };
    if (node.value.kind === "null") return !rows.some((row) => notNull(kind, read(row)));
    if (node.value.kind === "notNull") return rows.some((row) => notNull(kind, read(row)));
    const negated = node.operator === "≠" || node.operator === "∉";
    const operator = node.operator === "≠" ? "=" : node.operator === "∉" ? ":" : node.operator;
    const texts = node.value.kind === "set" ? node.value.items : [node.value.text];
    const found = rows.some((row) => positive(kind, operator, read(row), texts));
    return negated ? !found : found;
  }
}

function notNull(kind: Kind, value: unknown): boolean {
  if (kind === "textArray") return Array.isArray(value) && value.length > 0;
  if (kind === "json") {
    if (value === undefined || value === null) return false;
    if (Array.isArray(value)) return value.length > 0;
    if (typeof value === "object") return Object.keys(value).length > 0;
    return true;
  }
  return value !== null && value !== undefined;
}

function positive(kind: Kind, operator: string, value: unknown, texts: readonly string[]): boolean {
  if (value === null || value === undefined) return false;
  switch (kind) {
    case "text": {
      const v = value as string;
      if (operator === ":") return v.includes(texts[0]);
      if (operator === "^") return v.startsWith(texts[0]);
      return texts.includes(v);
    }
    case "enum":
    case "idText":
      return texts.includes(value as string);
    case "uuid":
      return texts.some((t) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(t) && t.toLowerCase() === value);
    case "idBigint":
      return texts.some((t) => /^-?\d+$/.test(t) && BigInt(t) === BigInt(value as string));
    case "bool":
      return texts.some((t) => (t === "true") === value);
    case "int":
    case "decimal":
      return compare(operator, value as number, texts.map(Number));
    case "tsUs":
      return compare(operator, Math.floor((value as number) / 1000), texts.map(Number));
    case "epochMs":
      return compare(operator, value as number, texts.map(Number));
    case "textArray": {
      const array = value as string[];
      return operator === "∈" ? texts.some((t) => array.includes(t)) : array.includes(texts[0]);
    }
    case "json":
      throw new Error("reference: whole JSON only takes null checks");
  }
}

function compare(operator: string, value: number, targets: readonly number[]): boolean {
  const target = targets[0];
  switch (operator) {
    case ">": return value > target;
    case "≥": return value >= target;
    case "<": return value < target;
    case "≤": return value <= target;
    case "∈": return targets.includes(value);
    default: return value === target;
  }
}

/** What PostgreSQL's `jsonb #>> path` yields, as text (null when absent or JSON null). */
function jsonbTextAt(value: unknown, path: readonly string[]): string | null {
  let current = value;
  for (const key of path) {
    if (current === null || current === undefined || typeof current !== "object" || Array.isArray(current)) return null;
    current = (current as Obj)[key];
  }
  if (current === undefined || current === null) return null;
  if (typeof current === "string") return current;
  return jsonbText(current);
}

function jsonbText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    // jsonb stores keys shorter-first, then bytewise.
    const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((key) => `${JSON.stringify(key)}: ${jsonbText((value as Obj)[key])}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}
