import fc from "fast-check";
import { FILTER_OPERATORS, type FilterComparison, type FilterNode, type FilterOperator, type FilterValue } from "../../src/index.js";
import { NAME_PARTS, TAG_POOL, UUID_POOL } from "./fixture-data.js";
import { storableText } from "./arbitraries.js";

const BASE_MS = 1_700_000_000_000;

/** Searchable paths of the fixture item resource, with valid operators and likely values. */
interface PathCase {
  readonly path: string;
  readonly operators: readonly FilterOperator[];
  readonly values: fc.Arbitrary<string>;
}

const TEXT_OPS: FilterOperator[] = [":", "=", "≠", "∉", "^", "∈"];
const RANGE_OPS: FilterOperator[] = [":", "=", "≠", ">", "≥", "<", "≤", "∈"];
const EQUALITY_OPS: FilterOperator[] = [":", "=", "≠", "∈"];
const ARRAY_OPS: FilterOperator[] = [":", "=", "≠", "∉", "∈"];
const NULL_ONLY: FilterOperator[] = [];

const textValues = fc.oneof(fc.constantFrom(...NAME_PARTS, "", "a", "b", "lob", "Ab,", "x", "Menu", "Ops", "Lobby", "hello"), storableText);
const itemIds = fc.integer({ min: 0, max: 160 }).map((i) => `i${String(i).padStart(3, "0")}`);
const folderIds = fc.integer({ min: 1, max: 13 }).map((i) => `f${i}`);
const teamIds = fc.integer({ min: 1, max: 7 }).map((i) => `t${i}`);
const contentIds = fc.integer({ min: 1, max: 9 }).map((i) => `c${i}`);
const timestamps = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: -1, max: 2 })).map(([s, d]) => String(BASE_MS + s * 1000 + d));

export const PATH_CASES: readonly PathCase[] = [
  { path: "id", operators: EQUALITY_OPS, values: itemIds },
  { path: "customerId", operators: RANGE_OPS, values: fc.integer({ min: 0, max: 13 }).map(String) },
  { path: "name", operators: TEXT_OPS, values: textValues },
  { path: "comment", operators: TEXT_OPS, values: fc.constantFrom("", "hello", "Hello", "50%", "o", "l") },
  { path: "weight", operators: RANGE_OPS, values: fc.integer({ min: -4, max: 5 }).map(String) },
  { path: "score", operators: RANGE_OPS, values: fc.constantFrom("0", "1", "-1", String(2 ** 40), String(-(2 ** 40)), "123456789012", "5") },
  { path: "ratio", operators: RANGE_OPS, values: fc.constantFrom("0", "0.5", "-0.25", "1.5", "3", "0.1", "1e0", "-0") },
  { path: "price", operators: RANGE_OPS, values: fc.constantFrom("0", "0.1", "0.10", "9.99", "-1.5", "100", "1e2") },
  { path: "enabled", operators: EQUALITY_OPS, values: fc.constantFrom("true", "false") },
  { path: "createdDate", operators: RANGE_OPS, values: timestamps },
  { path: "lastSeen", operators: RANGE_OPS, values: fc.integer({ min: -1, max: 7 }).map((d) => String(BASE_MS + d)) },
  { path: "status", operators: EQUALITY_OPS, values: fc.constantFrom("ONLINE", "OFFLINE", "UNKNOWN") },
  { path: "tags", operators: ARRAY_OPS, values: fc.constantFrom(...TAG_POOL, "x", "RED") },
  { path: "info", operators: NULL_ONLY, values: fc.constant("") },
  { path: "info.a", operators: TEXT_OPS, values: fc.constantFrom("x", "y", "Xy%", "X", "") },
  { path: "info.n", operators: TEXT_OPS, values: fc.constantFrom("5", "-12", "1") },
  { path: "info.b", operators: TEXT_OPS, values: fc.constantFrom("true", "false") },
  { path: "info.nested", operators: TEXT_OPS, values: fc.constantFrom('{"c": "deep"}', '"c"', "deep", '{"c": "x", "d": 1}') },
  { path: "info.nested.c", operators: TEXT_OPS, values: fc.constantFrom("deep", "x", "e") },
  { path: "info.arr", operators: TEXT_OPS, values: fc.constantFrom("[1, 2]", "1", "[") },
  { path: "uid", operators: EQUALITY_OPS, values: fc.constantFrom(...UUID_POOL, UUID_POOL[1].toUpperCase(), "nope") },
  { path: "bigRef", operators: EQUALITY_OPS, values: fc.constantFrom("1", "2", "-3", "9007199254740993", "x", "99999999999999999999") },
  { path: "secret", operators: TEXT_OPS, values: fc.constantFrom("s", "") },
  { path: "tagCount", operators: RANGE_OPS, values: fc.integer({ min: 0, max: 4 }).map(String) },
  { path: "folderId", operators: EQUALITY_OPS, values: folderIds },
  { path: "folderPath", operators: ARRAY_OPS, values: folderIds },
  { path: "content", operators: NULL_ONLY, values: fc.constant("") },
  { path: "content.id", operators: EQUALITY_OPS, values: contentIds },
  { path: "content.name", operators: TEXT_OPS, values: fc.constantFrom("Menu", "menu", "Promo%", "enu", "News", "") },
  { path: "content.kind", operators: EQUALITY_OPS, values: fc.constantFrom("SLIDE", "COMPLEX") },
  { path: "content.updatedAt", operators: RANGE_OPS, values: timestamps },
  { path: "contentName", operators: TEXT_OPS, values: fc.constantFrom("Menu", "menu", "enu", "") },
  { path: "teamIds", operators: EQUALITY_OPS, values: teamIds },
  { path: "folder", operators: NULL_ONLY, values: fc.constant("") },
  { path: "folder.name", operators: TEXT_OPS, values: fc.constantFrom("Lobby", "lobby", "Floor 1", "o") },
  { path: "folder.parentId", operators: EQUALITY_OPS, values: folderIds },
  { path: "folder.folderPath", operators: ARRAY_OPS, values: folderIds },
  { path: "teamAssignments", operators: NULL_ONLY, values: fc.constant("") },
  { path: "teamAssignments.readOnly", operators: EQUALITY_OPS, values: fc.constantFrom("true", "false") },
  { path: "teamAssignments.team", operators: NULL_ONLY, values: fc.constant("") },
  { path: "teamAssignments.team.id", operators: EQUALITY_OPS, values: teamIds },
  { path: "teamAssignments.team.name", operators: TEXT_OPS, values: fc.constantFrom("Ops", "ops", "Sales", "a,b", "s") },
];

function comparisonFor(path: string, operator: FilterOperator, values: fc.Arbitrary<string>): fc.Arbitrary<FilterComparison> {
  const value: fc.Arbitrary<FilterValue> =
    operator === "∈"
      ? fc.array(values, { minLength: 1, maxLength: 3 }).map((items) => ({ kind: "set", items }))
      : values.map((text) => ({ kind: "text", text }));
  return value.map((v) => ({ kind: "comparison", field: path, operator, value: v }));
}

const nullCheck = (path: string): fc.Arbitrary<FilterComparison> =>
  fc.constantFrom<FilterValue>({ kind: "null" }, { kind: "notNull" }).map((value) => ({ kind: "comparison", field: path, operator: "=", value }));

/** Comparisons the item registry accepts. */
export const validComparison: fc.Arbitrary<FilterNode> = fc.constantFrom(...PATH_CASES).chain((pathCase) => {
  const options = [nullCheck(pathCase.path)];
  if (pathCase.operators.length > 0) {
    options.push(fc.constantFrom(...pathCase.operators).chain((operator) => comparisonFor(pathCase.path, operator, pathCase.values)));
  }
  return fc.oneof({ arbitrary: options[0], weight: 1 }, ...options.slice(1).map((arbitrary) => ({ arbitrary, weight: 4 })));
});

/** Anything: known or unknown paths, any operator, any value, valid or not. */
export const anyComparison: fc.Arbitrary<FilterNode> = fc
  .tuple(
    fc.oneof(fc.constantFrom(...PATH_CASES.map((c) => c.path)), fc.constantFrom("nmae", "content.nope", "name.x", "info.a.b.c", "tags.x")),
    fc.constantFrom(...FILTER_OPERATORS),
    fc.oneof(...PATH_CASES.map((c) => c.values), storableText),
  )
  .chain(([path, operator, value]) =>
    fc.oneof(comparisonFor(path, operator, fc.constant(value)), nullCheck(path)),
  );
