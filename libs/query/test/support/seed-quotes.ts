/**
 * Sentences of the interface document (seed 001, "Paging, projection, common list parameters",
 * "Filter language", "Teams on resources") that the tests enforce. seed-quotes.test.ts checks
 * each appears verbatim in the document, so test names cannot drift from it.
 */
export const SEED = {
  caseSensitive: "Filter language (`search` parameter; case-sensitive)",
  colon: "`:` contains for strings, equals for other types",
  equals: "`=` exact match",
  negations: "`≠` not equal; `∉` does not contain (strings); `^` starts with",
  ranges: "`>`, `≥`, `<`, `≤` numeric or date comparison (dates are Unix milliseconds)",
  inSet: "`∈` in set (separators inside the value must be encoded)",
  tags: "`tags:value` tests array containment.",
  logic: "Logic: `,` = AND, `|` = OR, parentheses group.",
  precedence: "OR binds tighter than AND (`a:1|b:2,c:3` means (a OR b) AND c).",
  specialValues: "Special values: `=NULL` (null or empty collection), `=!NULL` (not null or non-empty collection), `=true`, `=false`.",
  nested: "Nested fields use dots (`content.name:x`, `teamAssignments.team.id=<id>`).",
  encoding:
    "Encoding: a value that itself contains operator characters must be percent-encoded before it is placed in the expression; over raw HTTP the operators are double-encoded.",
  folders: "Direct: `{field}=<id>`; recursive: `{path}:<id>`; roots: `parentId=NULL`.",
  folderTable: "| device | deviceGroupId | deviceGroupPath |",
  teams: "filters `teamAssignments.team.id=<id>`, `teamAssignments=NULL`, `teamAssignments=!NULL`",
  paging: "`page` (int, default 0, zero-based), `size` (int, default 20; the endpoint may impose a lower cap).",
  pageObject: "Response Page: first, last, number, numberOfElements, totalElements, totalPages, size, content.",
  count: "`size=1&select=id` yields a count through totalElements.",
  sort: "`sort`: `field,direction`; repeatable; nested fields allowed.",
  selectStar: "`select`: `*` = all primitive fields (not computed or relations)",
  selectList: "`a,b` = listed fields, `relation(a,b)` = nested, at most 2 levels deep",
  selectId: "`id` is always included; computed and select-only fields must be named explicitly.",
  searchVsSelect: "`search` may use any field including internal ones; `select` only fields of the published schema.",
  quickFilter: "`quickFilterId` (saved filter, combined with search by AND)",
  teamParams: "`selectTeamIds` (comma separated), `includeResourcesWithoutTeam` (bool, default false), `includeReadOnlyInfo` (adds readOnly)",
  selectNestingLimit: "| Filter selection nesting | 2 levels |",
} as const;
