// "`sort`: `field,direction`; repeatable; nested fields allowed": a sortable JSON field sorts by
// the keys it declares (sortKeys); any other key below it is an unknown field, not a sort on NULL.
import { describe, expect, test } from "vitest";
import { defineResource, InvalidSortError, ListQueryError, planList, UnknownFieldError } from "../src/index.js";
import { SEED } from "./support/seed-quotes.js";

const thing = defineResource({
  table: "thing",
  idColumn: "id",
  fields: {
    id: { type: "id" },
    name: { type: "string" },
    creator: { type: "json", sortable: true, sortKeys: ["email", "name"], computed: { sql: "json_build_object('email', ??, 'name', ??)", columns: ["creator_email", "creator_name"] } },
  },
});

function rejection(sort: string): ListQueryError {
  try {
    planList(thing, { sort });
  } catch (error) {
    expect(error).toBeInstanceOf(ListQueryError);
    return error as ListQueryError;
  }
  throw new Error("expected a rejection");
}

describe(SEED.sort, () => {
  test("a declared key sorts (as jsonb at that path)", () => {
    const plan = planList(thing, { sort: ["creator.email,desc"] });
    expect(plan.sort.map((k) => [k.field, k.direction])).toEqual([["creator.email", "desc"], ["id", "asc"]]);
    expect(plan.sort[0].expression.bindings).toContainEqual(["email"]);
  });

  test.each(["creator.bogus", "creator.email.x", "creator.Email"])("%s is 400 sort.error.unknownField offering the declared keys", (field) => {
    const error = rejection(`${field},asc`) as UnknownFieldError;
    expect(error).toBeInstanceOf(UnknownFieldError);
    expect(error.key).toBe("sort.error.unknownField");
    expect([error.field, error.knownFields]).toEqual([field, ["creator.email", "creator.name"]]);
  });

  test("the object itself is no key; an unknown top-level field offers the declared keys", () => {
    const whole = rejection("creator,asc");
    expect(whole).toBeInstanceOf(InvalidSortError);
    expect(whole.message).toContain("sort on one of its fields (e.g. creator.email)");
    expect((rejection("nosuch") as UnknownFieldError).knownFields).toEqual(["id", "name", "creator.email", "creator.name"]);
  });

  test("defineResource: a sortable json field needs sortKeys; sortKeys need a sortable json field", () => {
    const define = (spec: object) => () => defineResource({ table: "t", fields: { f: { type: "json", ...spec } } });
    expect(define({ sortable: true })).toThrow("sortable needs sortKeys");
    expect(define({ sortable: true, sortKeys: [] })).toThrow("sortable needs sortKeys");
    expect(define({ sortable: true, sortKeys: ["a b"] })).toThrow("is not a dotted name");
    expect(define({ sortKeys: ["a"] })).toThrow("sortKeys belong to a sortable json field");
    expect(() => defineResource({ table: "t", fields: { f: { type: "string", sortKeys: ["a"] } } })).toThrow("sortKeys belong to a sortable json field");
  });
});
