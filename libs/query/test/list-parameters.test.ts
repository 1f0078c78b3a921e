import { describe, expect, test } from "vitest";
import {
  defineResource,
  InvalidListParameterError,
  InvalidPagingError,
  InvalidSelectError,
  InvalidSortError,
  ListQueryError,
  planList,
  UnknownFieldError,
  type ListParams,
} from "../src/index.js";
import { pageInfo } from "../src/list/page.js";
import { contentResource, folderResource, itemResource } from "./support/fixture-registry.js";
import { SEED } from "./support/seed-quotes.js";

const plan = (params: ListParams, options = {}) => planList(itemResource, params, options);
const selected = (select: string | undefined) => {
  const names = (selection: ReturnType<typeof plan>["selection"]): unknown[] =>
    selection.fields.map((f) => (f.kind === "value" ? f.field.name : { [f.field.name]: names(f.selection) }));
  return names(plan({ select }).selection);
};

function rejection(params: ListParams, options = {}): ListQueryError {
  try {
    plan(params, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ListQueryError);
    return error as ListQueryError;
  }
  throw new Error("expected a rejection");
}

describe(SEED.paging, () => {
  test("defaults: page 0, size 20", () => {
    expect(plan({})).toMatchObject({ page: 0, size: 20 });
  });
  test("numbers arrive as query-string text", () => {
    expect(plan({ page: "3", size: "50" })).toMatchObject({ page: 3, size: 50 });
  });
  test("the endpoint's cap and its own default", () => {
    expect(plan({}, { defaultSize: 10, maxSize: 100 })).toMatchObject({ size: 10 });
    expect(plan({ size: 100 }, { maxSize: 100 })).toMatchObject({ size: 100 });
    // "the endpoint may impose a lower cap": a larger size is lowered to it, not refused.
    expect(plan({ size: 101 }, { maxSize: 100 })).toMatchObject({ size: 100 });
    expect(plan({ size: "100000" })).toMatchObject({ size: 1000 });
    const error = rejection({ size: -5 }, { maxSize: 100 });
    expect(error).toBeInstanceOf(InvalidPagingError);
    expect(error.key).toBe("paging.error.invalid");
    expect(error.message).toBe("Invalid size -5: a page holds at least 1 element");
  });
  test.each([
    [{ page: -1 }, "Invalid page -1: pages are numbered from 0"],
    [{ page: "1.5" }, "Invalid page '1.5': expected a whole number"],
    [{ size: 0 }, "Invalid size 0"],
    [{ size: "ten" }, "Invalid size 'ten': expected a whole number"],
    [{ page: 2 ** 52, size: 1000 }, "lies beyond any possible result"],
  ] as [ListParams, string][])("%j is rejected", (params, message) => {
    const error = rejection(params);
    expect(error.key).toBe("paging.error.invalid");
    expect(error.message).toContain(message);
  });
});

describe(SEED.pageObject, () => {
  test.each([
    [0, 20, 20, 45, { totalPages: 3, first: true, last: false }],
    [2, 20, 5, 45, { totalPages: 3, first: false, last: true }],
    [0, 20, 0, 0, { totalPages: 0, first: true, last: true }],
    [7, 20, 0, 45, { totalPages: 3, first: false, last: true }],
  ])("page %i of size %i with %i elements of %i", (page, size, count, total, expected) => {
    expect(pageInfo(page, size, count, total)).toEqual({ number: page, size, numberOfElements: count, totalElements: total, ...expected });
  });
});

describe(SEED.sort, () => {
  const keys = (sort: ListParams["sort"]) => plan({ sort }).sort.map((key) => `${key.field},${key.direction}`);
  test("field,direction; the id is the stable tiebreak", () => {
    expect(keys("name,desc")).toEqual(["name,desc", "id,asc"]);
  });
  test("repeatable, direction optional and case-insensitive", () => {
    expect(keys(["status", "weight,DESC"])).toEqual(["status,asc", "weight,desc", "id,asc"]);
  });
  test("sorting on id needs no second id", () => {
    expect(keys("id,desc")).toEqual(["id,desc"]);
  });
  test("nested fields through to-one relations", () => {
    expect(keys("content.name,asc")).toEqual(["content.name,asc", "id,asc"]);
  });
  test("the resource's default sort applies when none is given", () => {
    expect(keys(undefined)).toEqual(["name,asc", "id,asc"]);
  });
  test("an unknown field is 400 sort.error.unknownField naming it", () => {
    const error = rejection({ sort: "nmae,asc" });
    expect(error).toBeInstanceOf(UnknownFieldError);
    expect(error.key).toBe("sort.error.unknownField");
    expect(error.message).toMatch(/^Unknown field 'nmae' in sort; known fields: id, customerId, name,/);
  });
  // "`sort`: `field,direction`; repeatable; nested fields allowed." The 400s point at what sort
  // does accept: the fields offered can be sorted on, and the relation hint names a real field.
  test("an unknown field lists only what sort accepts: sortable fields and to-one relations", () => {
    const error = rejection({ sort: "nmae" }) as UnknownFieldError;
    expect(error.knownFields).toEqual([
      "id", "customerId", "name", "comment", "weight", "score", "ratio", "price", "enabled", "createdDate", "lastSeen",
      "status", "uid", "bigRef", "secret", "tagCount", "content", "contentName", "folder", "folderId",
    ]);
    expect((rejection({ sort: "content.nmae" }) as UnknownFieldError).knownFields).toEqual(["content.id", "content.name", "content.kind", "content.updatedAt"]);
  });
  test.each([
    ["content", "'content' is a relation; sort on one of its fields (e.g. content.id)"],
    ["teamAssignments", "'teamAssignments' is or goes through a to-many relation, which has no single value to sort by"],
    ["teamAssignments.team", "'teamAssignments.team' is or goes through a to-many relation"],
  ])("sorting on the relation %s says how to sort instead", (sort, message) => {
    const error = rejection({ sort });
    expect(error).toBeInstanceOf(InvalidSortError);
    expect(error.message).toContain(message);
  });
  test.each([
    ["name,up", "direction must be asc or desc, not 'up'"],
    ["name,asc,desc", "expected 'field' or 'field,asc|desc'"],
    ["tags,asc", "'tags' cannot be sorted on"],
    ["content", "'content' is a relation"],
    ["teamAssignments.readOnly", "goes through a to-many relation"],
    ["teamIds", "goes through a to-many relation"],
  ])("%s is sort.error.invalid", (sort, message) => {
    const error = rejection({ sort });
    expect(error).toBeInstanceOf(InvalidSortError);
    expect(error.key).toBe("sort.error.invalid");
    expect(error.message).toContain(message);
  });
});

describe(SEED.selectStar, () => {
  test("* = primitive published fields: no computed, select-only, internal or relation fields", () => {
    expect(selected("*")).toEqual([
      "id", "name", "comment", "weight", "score", "ratio", "price", "enabled", "createdDate", "lastSeen",
      "status", "tags", "info", "uid", "bigRef", "folderId", "folderPath",
    ]);
  });
  test("no select means *", () => {
    expect(selected(undefined)).toEqual(selected("*"));
  });
});

describe(SEED.selectList, () => {
  test("a,b = listed fields (plus id)", () => {
    expect(selected("name,weight")).toEqual(["id", "name", "weight"]);
  });
  test("relation(a,b) = nested", () => {
    expect(selected("content(name)")).toEqual(["id", { content: ["id", "name"] }]);
  });
  test("two levels deep", () => {
    expect(selected("teamAssignments(readOnly,team(name))")).toEqual(["id", { teamAssignments: ["readOnly", { team: ["id", "name"] }] }]);
  });
  test(`${SEED.selectNestingLimit}: a third level is rejected`, () => {
    const error = rejection({ select: "teamAssignments(team(name(x)))" });
    expect(error).toBeInstanceOf(InvalidSelectError);
    expect(error.key).toBe("select.error.invalid");
    expect(error.message).toBe("Invalid select at position 25: selections nest at most 2 levels deep");
  });
  test("a relation named alone selects its *", () => {
    expect(selected("content")).toEqual(["id", { content: ["id", "name", "kind", "updatedAt"] }]);
  });
  test("spaces around names are ignored; * combines with more", () => {
    expect(selected(" name , content( name ) ")).toEqual(["id", "name", { content: ["id", "name"] }]);
    expect(selected("*,tagCount")).toEqual([...selected("*").slice(0, 15), "tagCount", "folderId", "folderPath"]);
  });
});

describe(SEED.selectId, () => {
  test("id is always included", () => {
    expect(selected("name")).toContain("id");
  });
  test("a to-many path field cannot be selected", () => {
    const error = rejection({ select: "teamIds" });
    expect(error.key).toBe("select.error.unknownField");
  });
  test("computed and select-only fields only when named", () => {
    expect(selected("*")).not.toContain("tagCount");
    expect(selected("*")).not.toContain("secret");
    expect(selected("tagCount,secret")).toEqual(["id", "secret", "tagCount"]);
  });
});

describe(SEED.searchVsSelect, () => {
  test("select cannot name an internal field; 400 select.error.unknownField", () => {
    const error = rejection({ select: "name,customerId" });
    expect(error).toBeInstanceOf(UnknownFieldError);
    expect(error.key).toBe("select.error.unknownField");
    expect(error.message).toMatch(/^Unknown field 'customerId' in select at position 5; known fields: id, name,/);
  });
  test("search can", () => {
    expect(() => plan({ search: "customerId=1" })).not.toThrow();
  });
  test.each([
    ["name,,id", "Invalid select at position 5: expected a field name or '*' but found ','"],
    ["content(name", "Invalid select at position 12: expected ',' or ')' but found end of input"],
    ["na-me", "Invalid select at position 2: expected ',' or end of select but found '-'"],
    ["name(x)", "'name' is not a relation, so it takes no (...)"],
    ["content(nope)", "Unknown field 'content.nope' in select at position 8"],
  ])("%s", (select, message) => {
    expect(rejection({ select }).message).toContain(message);
  });
});

describe(`${SEED.searchVsSelect}: a relation publishing part of its target`, () => {
  // A user's `customer` is a nested {id, name, ...}, not a whole customer: select names only the
  // published part (it used to accept any target field and the service dropped it silently).
  const owner = defineResource({
    table: "owner",
    fields: {
      id: { type: "id" },
      content: { type: "relation", cardinality: "one", target: contentResource, localColumn: "content_id", targetColumn: "id", published: ["id", "name"] },
    },
  });
  const pick = (select: string) => planList(owner, { select }).selection.fields.map((f) => (f.kind === "relation" ? f.selection.fields.map((n) => n.field.name) : f.field.name));
  test("select takes the published fields, and * or the bare relation means those only", () => {
    expect(pick("content(name)")).toEqual(["id", ["id", "name"]]);
    expect(pick("content")).toEqual(["id", ["id", "name"]]);
    expect(pick("content(*)")).toEqual(["id", ["id", "name"]]);
  });
  test("another field of the target is 400 select.error.unknownField naming what may be selected", () => {
    try {
      planList(owner, { select: "content(kind)" });
      expect.unreachable();
    } catch (error) {
      expect((error as ListQueryError).key).toBe("select.error.unknownField");
      expect((error as Error).message).toMatch(/^Unknown field 'content.kind' in select at position 8; known fields: content.id, content.name$/);
    }
  });
  test("search and sort still reach every field of the target", () => {
    expect(() => planList(owner, { search: "content.kind=SLIDE", sort: "content.kind,desc" })).not.toThrow();
  });
  test("a published name the target lacks is a registry mistake, said at once", () => {
    const broken = defineResource({
      table: "broken",
      fields: { id: { type: "id" }, content: { type: "relation", cardinality: "one", target: contentResource, localColumn: "content_id", targetColumn: "id", published: ["id", "nmae"] } },
    });
    expect(() => planList(broken, { select: "content" })).toThrow("publishes 'nmae'");
  });
});

describe(SEED.teamParams, () => {
  test("selectTeamIds needs a resource with team assignments", () => {
    expect(() => planList(folderResource, { selectTeamIds: "t1" })).toThrow(InvalidListParameterError);
    try {
      planList(folderResource, { selectTeamIds: "t1" });
    } catch (error) {
      expect((error as ListQueryError).key).toBe("selectTeamIds.error.invalid");
    }
  });
  test("booleans are true or false", () => {
    const error = rejection({ includeReadOnlyInfo: "yes" });
    expect(error.key).toBe("includeReadOnlyInfo.error.invalid");
    expect(plan({ includeReadOnlyInfo: "true" }).includeReadOnlyInfo).toBe(true);
    expect(plan({}).includeReadOnlyInfo).toBe(false);
  });
  test("selectTeamIds alone adds one filter; empty items are ignored", () => {
    expect(plan({ selectTeamIds: "t1, ,t2" }).filters).toHaveLength(1);
    expect(plan({ selectTeamIds: "", includeResourcesWithoutTeam: true }).filters).toHaveLength(0);
  });
  // "`selectTeamIds` (comma separated)": team ids. An item the team id type cannot hold names no
  // team and never can: bad input (400), not a filter quietly matching nothing.
  test("an item that cannot be a team id of the resource is selectTeamIds.error.invalid naming it; well-formed ids pass", () => {
    const uuidTeams = defineResource({ table: "doc", fields: { name: { type: "string" } }, teams: { table: "doc_team_assignment", teamIdType: "uuid" } });
    const id = "0b6f1c2e-8d3a-4c5b-9e7f-1a2b3c4d5e6f";
    const refused = (selectTeamIds: string) => {
      try {
        planList(uuidTeams, { selectTeamIds });
      } catch (error) {
        return error as ListQueryError;
      }
      throw new Error(`expected ${selectTeamIds} to be refused`);
    };
    for (const [value, says] of [
      ["nope", "'nope' is not a team id"],
      [`${id},Marketing team`, "'Marketing team' is not a team id"],
      [`${id}:true`, "teamId:readOnly"],
    ]) {
      const error = refused(value);
      expect(error).toBeInstanceOf(InvalidListParameterError);
      expect(error.key).toBe("selectTeamIds.error.invalid");
      expect(error.message).toContain(says);
      expect(error.details).toMatchObject({ parameter: "selectTeamIds", value });
    }
    expect(planList(uuidTeams, { selectTeamIds: ` ${id.toUpperCase()} , ${id}` }).filters).toHaveLength(1);
    // Text team ids hold anything: nothing to refuse.
    expect(plan({ selectTeamIds: "Marketing team" }).filters).toHaveLength(1);
  });
});

describe(SEED.quickFilter, () => {
  test("the quick filter is a second filter next to search", () => {
    expect(plan({ search: "name:a", quickFilter: "weight>1" }).filters).toHaveLength(2);
  });
  test("its errors say quickFilter", () => {
    const error = rejection({ quickFilter: "nmae:x" });
    expect(error.key).toBe("search.error.unknownField");
    expect(error.message).toMatch(/^Unknown field 'nmae' in quickFilter at position 0/);
  });
});
