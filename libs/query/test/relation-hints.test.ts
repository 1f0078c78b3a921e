// The hint a relation compared with a value gets must name a path search accepts.
import knexFactory from "knex";
import { describe, expect, test } from "vitest";
import { applyFilter, InvalidFilterError, type ListQueryError } from "../src/index.js";
import { itemResource } from "./support/fixture-registry.js";
import { SEED } from "./support/seed-quotes.js";

const knex = knexFactory({ client: "pg" });

function rejection(search: string): ListQueryError {
  try {
    applyFilter(knex("item").select("id"), itemResource, search).toSQL();
  } catch (error) {
    return error as ListQueryError;
  }
  throw new Error(`expected '${search}' to be rejected`);
}

describe(`${SEED.teams}: a relation compared with a value is 400 with a hint that works`, () => {
  test.each([
    // A team assignment has no id of its own: the hint is the documented team filter.
    ["teamAssignments:x", "teamAssignments.team.id=<id>"],
    ["teamAssignments.team=x", "teamAssignments.team.id=<id>"],
    ["content:x", "content.id=<id>"],
  ])("%s suggests %s, which itself compiles", (search, suggested) => {
    const error = rejection(search);
    expect(error).toBeInstanceOf(InvalidFilterError);
    expect(error.key).toBe("search.error.invalid");
    expect(error.message).toContain(`compare one of its fields (e.g. ${suggested}) or use =NULL / =!NULL`);
    const example = suggested.replace("<id>", "t1");
    expect(() => applyFilter(knex("item").select("id"), itemResource, example).toSQL()).not.toThrow();
  });
});
