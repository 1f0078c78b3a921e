import knexFactory from "knex";
import { describe, expect, test } from "vitest";
import { applyFilter, defineResource, InvalidFilterError, ListQueryError, UnknownFieldError, type FilterNode } from "../src/index.js";
import { itemResource } from "./support/fixture-registry.js";
import { SEED } from "./support/seed-quotes.js";

// Builds SQL text only; no connection is made.
const knex = knexFactory({ client: "pg" });

function sqlOf(search: string): { sql: string; bindings: readonly unknown[] } {
  const query = applyFilter(knex("item").select("id"), itemResource, search).toSQL();
  return { sql: query.sql, bindings: query.bindings };
}

function rejection(search: string): ListQueryError {
  try {
    sqlOf(search);
  } catch (error) {
    expect(error).toBeInstanceOf(ListQueryError);
    return error as ListQueryError;
  }
  throw new Error(`expected '${search}' to be rejected`);
}

describe("unknown fields: 400 naming the field", () => {
  // SEED.searchVsSelect: "`search` may use any field including internal ones; `select` only fields
  // of the published schema." A published field a list declares unsearchable is not "unknown".
  test(`${SEED.searchVsSelect} — a published field declared searchable: false is named as not searchable, not as unknown`, () => {
    const resource = defineResource({
      table: "item",
      fields: { name: { type: "string" }, blob: { type: "json", searchable: false }, hidden: { type: "string", searchable: false, selectable: false } },
    });
    const fail = (search: string) => {
      try {
        applyFilter(knex("item"), resource, search);
      } catch (error) {
        return error as ListQueryError;
      }
      throw new Error(`expected '${search}' to be rejected`);
    };
    for (const search of ["blob=NULL", "blob.a.b=x"]) {
      const error = fail(search);
      expect(error).toBeInstanceOf(InvalidFilterError);
      expect(error.key).toBe("search.error.invalid");
      expect(error.message).toBe(`Invalid search at position 0 in '${search}': '${search.split(/[=]/)[0]}' cannot be used in search (it is only returned by select); searchable fields: id, name`);
    }
    // A field neither published nor searchable stays unknown.
    expect(fail("hidden=x")).toBeInstanceOf(UnknownFieldError);
  });
  test("a misspelt field names itself, its position and the known fields", () => {
    const error = rejection("name:a,nmae:x") as UnknownFieldError;
    expect(error).toBeInstanceOf(UnknownFieldError);
    expect(error.key).toBe("search.error.unknownField");
    expect(error.field).toBe("nmae");
    expect(error.message).toMatch(/^Unknown field 'nmae' in search at position 7; known fields: id, customerId, name, comment,/);
    expect(error.details).toMatchObject({ parameter: "search", field: "nmae", position: 7 });
  });
  test("nested: the known fields are those of the related resource", () => {
    const error = rejection("content.nmae:x") as UnknownFieldError;
    expect(error.field).toBe("content.nmae");
    expect(error.knownFields).toEqual(["content.id", "content.name", "content.kind", "content.updatedAt"]);
  });
  test("a scalar field has no nested fields", () => {
    expect(rejection("name.first:x").message).toContain("field 'name' has no nested fields");
  });
});

describe(SEED.searchVsSelect, () => {
  test("search may use an internal (unpublished) field", () => {
    expect(sqlOf("customerId=1").sql).toContain('"item"."customer_id" = ?::bigint');
  });
});

describe("operators that do not apply to a type are rejected with the ones that do", () => {
  test.each([
    ["name>a", "operator '>' does not apply to 'name' (string); use one of : = ≠ ∉ ^ ∈ =NULL =!NULL"],
    ["weight^1", "operator '^' does not apply to 'weight' (integer); use one of : = ≠ > ≥ < ≤ ∈ =NULL =!NULL"],
    ["weight∉1", "operator '∉' does not apply to 'weight'"],
    ["enabled>true", "operator '>' does not apply to 'enabled' (boolean)"],
    ["tags^r", "operator '^' does not apply to 'tags' (string array)"],
    ["status^ON", "operator '^' does not apply to 'status' (enum)"],
    ["info:x", "operator ':' does not apply to 'info' (json)"],
    ["content:x", "'content' is a relation; compare one of its fields (e.g. content.id=<id>) or use =NULL / =!NULL"],
  ])("%s", (search, message) => {
    const error = rejection(search);
    expect(error).toBeInstanceOf(InvalidFilterError);
    expect(error.key).toBe("search.error.invalid");
    expect(error.message).toContain(message);
  });
});

describe("values are checked against the field type", () => {
  test.each([
    ["weight:abc", "'abc' is not an integer (field 'weight' is of type integer)"],
    ["weight:1.5", "'1.5' is not an integer"],
    ["weight>3000000000", "3000000000 is outside the range -2147483648..2147483647"],
    ["score<99999999999999999999", "is outside the range -9223372036854775808..9223372036854775807"],
    ["ratio≥x", "'x' is not a number"],
    ["ratio≥1e999", "1e999 is too large"],
    ["enabled=yes", "'yes' is not a boolean; use true or false"],
    ["status=online", "'online' is not one of ONLINE, OFFLINE, UNKNOWN"],
    ["createdDate>yesterday", "'yesterday' is not a date; dates are Unix milliseconds"],
    ["createdDate>999999999999999999", "outside the supported dates"],
    ["weight∈1%2Cx", "'x' is not an integer"],
  ])("%s", (search, message) => {
    const error = rejection(search);
    expect(error.key).toBe("search.error.invalid");
    expect(error.message).toContain(message);
  });
  test("the message quotes the comparison and its position", () => {
    expect(rejection("name:a,weight:abc").message).toMatch(/^Invalid search at position 7 in 'weight:abc': /);
  });
  test("an id the column type cannot hold matches nothing instead of failing", () => {
    expect(sqlOf("uid=not-a-uuid").sql).toContain("false");
    expect(sqlOf("bigRef∈x%2Cy").sql).toContain("false");
  });
});

describe("compiled SQL is parameterised", () => {
  test("values travel as bindings, never in the SQL text", () => {
    const hostile = "x'); drop table item; --";
    const { sql, bindings } = sqlOf(`name=${encodeURIComponent(hostile).replace(/[()]/g, (c) => (c === "(" ? "%28" : "%29"))}`);
    expect(sql).not.toContain("drop table");
    expect(bindings).toContain(hostile);
  });
  test("LIKE wildcards in a contains value are escaped", () => {
    expect(sqlOf("name:50%25_off").bindings).toContain("%50\\%\\_off%");
  });
  test(`${SEED.teams} — the team id is compared on the assignment table, no join to teams`, () => {
    const { sql } = sqlOf("teamAssignments.team.id=t1");
    expect(sql).toBe(
      'select "id" from "item" where exists (select * from "item_team_assignment" as "_f1" where "_f1"."resource_id" = "item"."id" and "_f1"."team_id" = ?::text)',
    );
    expect(sqlOf("teamAssignments=NULL").sql).toContain('not exists (select * from "item_team_assignment"');
  });
  test("a to-one relation compared on its key is the foreign key column", () => {
    expect(sqlOf("content.id=c1").sql).toBe('select "id" from "item" where "item"."content_id" = ?::text');
  });
  test(`${SEED.folders} — the recursive path is array containment (GIN-indexable)`, () => {
    expect(sqlOf("folderPath:f1").sql).toBe('select "id" from "item" where "item"."folder_path" @> ?::text[]');
    expect(sqlOf("folderId=f1").sql).toBe('select "id" from "item" where "item"."folder_id" = ?::text');
  });
  test(`${SEED.tags} — containment with @> (GIN-indexable)`, () => {
    expect(sqlOf("tags:red")).toEqual({ sql: 'select "id" from "item" where "item"."tags" @> ?::text[]', bindings: [["red"]] });
  });
  test("every OR of the filter is parenthesised, so it cannot widen the conditions next to it", () => {
    const query = applyFilter(knex("item").select("id").where("customer_id", 1), itemResource, "name:a|name:b").toSQL();
    expect(query.sql).toBe('select "id" from "item" where "customer_id" = ? and ("item"."name" like ? or "item"."name" like ?)');
    const nested = applyFilter(knex("item").select("id").where("customer_id", 1), itemResource, "weight>1,(name:a|name:b,tags:x)").toSQL();
    expect(nested.sql).toBe(
      'select "id" from "item" where "customer_id" = ? and "item"."weight" > ?::integer and (("item"."name" like ? or "item"."name" like ?) and "item"."tags" @> ?::text[])',
    );
  });
});

describe("trees built in code (quick filters) are checked like parsed ones", () => {
  const compileTree = (node: unknown) => () => applyFilter(knex("item"), itemResource, node as FilterNode);
  test.each([
    ["a set without ∈", { kind: "comparison", field: "name", operator: "=", value: { kind: "set", items: ["a"] } }],
    ["∈ without a set", { kind: "comparison", field: "name", operator: "∈", value: { kind: "text", text: "a" } }],
    ["NULL after another operator", { kind: "comparison", field: "name", operator: ">", value: { kind: "null" } }],
    ["an empty set", { kind: "comparison", field: "name", operator: "∈", value: { kind: "set", items: [] } }],
    ["an unknown operator", { kind: "comparison", field: "name", operator: "~", value: { kind: "text", text: "a" } }],
    ["an OR without children", { kind: "or", children: [] }],
  ])("%s is a 400, not a surprise", (_, node) => {
    expect(compileTree(node)).toThrow(InvalidFilterError);
  });
});

describe("'`>`, `≥`, `‹`, `≤` numeric or date comparison': numeric ids are numbers", () => {
  test("a bigint id (customers' ids are longs) takes the range operators; text and uuid ids do not", () => {
    const resource = (sqlType: "bigint" | "uuid" | "text") => defineResource({ table: "account", fields: { id: { type: "id", sqlType }, name: { type: "string" } } });
    const numeric = applyFilter(knex("account").select("id"), resource("bigint"), "id>10,id≤20").toSQL();
    expect(numeric.sql).toContain('"account"."id" > ?::bigint');
    expect(numeric.sql).toContain('"account"."id" <= ?::bigint');
    for (const sqlType of ["uuid", "text"] as const) {
      expect(() => applyFilter(knex("account"), resource(sqlType), "id>10"), sqlType).toThrow("operator '>' does not apply to 'id'");
    }
    // A bound that is no number is a 400, as for number fields (not a silent empty list).
    expect(() => applyFilter(knex("account"), resource("bigint"), "id>abc")).toThrow(InvalidFilterError);
  });
});
