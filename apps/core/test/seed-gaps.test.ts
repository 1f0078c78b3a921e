// Gaps left in core against document 2 (seed 001: "Customer scoping", "Paging, projection,
// common list parameters", "Teams, tags, users, quick filters", "Customer"), driven through
// the real gateway over HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, createTestDatabase } from "@signage/db";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { coreModule } from "../src/module.js";

let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule], prefix: "core_gaps_test" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(() => platform?.close());

const emailsOf = (body: { email: string }[]) => body.map((u) => u.email);

describe("GET /api/user/simple is bounded to one tenant (or a network owner's network)", () => {
  // Seed: "Users read | ... GET `/api/user/simple?customerId=<id>` (email and name only)" and
  // "Requiredness of customerId is per operation." The answer is a bare array with no paging
  // ("`size` (int, default 20; the endpoint may impose a lower cap)" has nothing to cap here),
  // so an ADMIN's global scope ("ADMIN | all tenants (global)", or "customerId=-1") would be
  // every user of every tenant in one answer: the ADMIN names the tenant instead. The other
  // rows of the scoping table stay as they are: "Network owner | all member tenants | that
  // tenant, if owned"; "Other roles | own tenant | own tenant".
  it("ADMIN without customerId, or with customerId=-1: 400 customer.error.customerIdRequired in the error body; with customerId: that tenant's users only; a network owner gets its network, other roles their own tenant", async () => {
    const a = (await createCustomer(platform.http, admin, { name: "Simple A" })).id;
    const b = (await createCustomer(platform.http, admin, { name: "Simple B" })).id;
    const userOfA = await createUser(platform.http, admin, a, "VIEWER");
    const userOfB = await createUser(platform.http, admin, b, "VIEWER");

    for (const query of [{}, { customerId: -1 }]) {
      const refused = await platform.http.get("/api/user/simple", { token: admin, query });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body).toEqual({
        status: 400,
        error: "Bad Request",
        key: "customer.error.customerIdRequired",
        message: expect.stringContaining("customerId"),
        details: { parameter: "customerId" },
      });
    }

    const ofA = await platform.http.get("/api/user/simple", { token: admin, query: { customerId: a } });
    expect(ofA.status, ofA.text).toBe(200);
    expect(ofA.body).toEqual([{ email: userOfA.email, name: userOfA.email }]);
    expect(emailsOf(ofA.body)).not.toContain(userOfB.email);

    const net = (await createCustomer(platform.http, admin, { name: "Simple Net", createAsSubreseller: true })).id;
    const member = (await createCustomer(platform.http, admin, { name: "Simple Member", ownerSubresellerId: net })).id;
    const netOwner = await createUser(platform.http, admin, net, "OWNER");
    const memberUser = await createUser(platform.http, admin, member, "VIEWER");
    const network = await platform.http.get("/api/user/simple", { token: netOwner.token });
    expect(network.status, network.text).toBe(200);
    expect(emailsOf(network.body).sort()).toEqual([netOwner.email, memberUser.email].sort());

    const own = await platform.http.get("/api/user/simple", { token: userOfB.token, query: { customerId: a } });
    expect(own.status, own.text).toBe(200);
    expect(emailsOf(own.body)).toEqual([userOfB.email]);
  });
});

describe("customer names are unique regardless of letter case", () => {
  const namesLike = async (name: string) =>
    (await platform.knexOf("core")("customer").whereRaw("lower(name) = lower(?)", [name]).select("name")).map((r: { name: string }) => r.name);

  // Seed, Customer: "| name | string | required, globally unique |". "Acme" and "acme" would be
  // two tenants an operator cannot tell apart in a customer list.
  it("create: a name differing only in case is a 409 customer.error.nameTaken in the error body, and nothing is written", async () => {
    const first = await platform.http.post("/api/customer", { token: admin, body: { name: "Acme Case" } });
    expect(first.status, first.text).toBe(200);
    const rootsBefore = await platform.knexOf("core")("device_group").count<{ count: string }[]>({ count: "*" });

    for (const name of ["acme case", "ACME CASE", "  aCmE cAsE  "]) {
      const taken = await platform.http.post("/api/customer", { token: admin, body: { name } });
      expect(taken.status, taken.text).toBe(409);
      expect(taken.body).toEqual({
        status: 409,
        error: "Conflict",
        key: "customer.error.nameTaken",
        message: expect.stringContaining(name.trim()),
        details: { name: name.trim() },
      });
    }
    expect(await namesLike("Acme Case")).toEqual(["Acme Case"]);
    // No half-written customer: its root folders went with the refused insert.
    expect(await platform.knexOf("core")("device_group").count<{ count: string }[]>({ count: "*" })).toEqual(rootsBefore);
  });

  // Seed, Customer: "| name | string | required, globally unique |"; "Update | PUT `/api/customer/{id}` | any customer fields".
  it("rename: to another customer's name in other case is a 409 and changes nothing; a customer may change the case of its own name", async () => {
    await createCustomer(platform.http, admin, { name: "Rename Taken" });
    const other = (await createCustomer(platform.http, admin, { name: "Rename Mine" })).id;

    const taken = await platform.http.put(`/api/customer/${other}`, { token: admin, body: { name: "rename TAKEN", comment: "not written" } });
    expect(taken.status, taken.text).toBe(409);
    expect(taken.body).toMatchObject({ status: 409, key: "customer.error.nameTaken", details: { name: "rename TAKEN" } });
    const row = await platform.knexOf("core")("customer").where({ id: other }).first("name", "comment");
    expect(row).toEqual({ name: "Rename Mine", comment: null });

    const recased = await platform.http.put(`/api/customer/${other}`, { token: admin, body: { name: "RENAME MINE" } });
    expect(recased.status, recased.text).toBe(200);
    expect(recased.body.name).toBe("RENAME MINE");
  });

  // Enforced by the database (a unique index on lower(name)), so concurrent creates cannot both win.
  it("concurrent creates of case variants of one name: exactly one wins, the others get 409", async () => {
    const variants = ["Race Co", "race co", "RACE CO", "Race co", "rACE cO", "race CO"];
    const results = await Promise.all(variants.map((name) => platform.http.post("/api/customer", { token: admin, body: { name } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.key).toBe("customer.error.nameTaken");
    expect(await namesLike("race co")).toHaveLength(1);
  });

  // Seed, Customer: "| name | string | required, globally unique |". The rule lands on existing
  // databases at start-up (migrations run there): customers that already differ only in case
  // are named, not renamed behind the operator's back.
  it("upgrading a database that already holds 'Acme' and 'acme' stops with both named; once one is renamed the rule applies", async () => {
    const testDb = await createTestDatabase({ prefix: "core_gaps_migrate" });
    const db = await createDatabase({ url: testDb.url, schema: "core", migrationsDir: new URL("../migrations/", import.meta.url) });
    try {
      await db.migrate();
      await db.knex.migrate.down({ name: "20261122000700_customer_name_ignore_case" }); // back to before the rule (later migrations stay)
      const [first, second] = await db.knex("customer").insert([{ name: "Acme Upgrade" }, { name: "acme upgrade" }]).returning("id");
      await expect(db.migrate()).rejects.toThrow(`${first.id} 'Acme Upgrade' / ${second.id} 'acme upgrade'`);
      await db.knex("customer").where({ id: second.id }).update({ name: "acme upgrade 2" });
      await db.migrate();
      await expect(db.knex("customer").insert({ name: "ACME UPGRADE" })).rejects.toMatchObject({ code: "23505", constraint: "customer_name_lower_unique" });
    } finally {
      await db.close();
      await testDb.drop();
    }
  });
});

describe("'`selectTeamIds` (comma separated)' on core's team-assignable lists: team ids", () => {
  // Seed: "Also accepted by many lists: ... `selectTeamIds` (comma separated)". Team ids are
  // UUIDs: an item that is none names no team and never can, so it is bad input (400 naming it,
  // libs/query planList), not an empty page that reads as "nobody in this team".
  it("selectTeamIds=nope on /api/v2/user is 400 selectTeamIds.error.invalid; an unknown but well-formed id is an empty page", async () => {
    const refused = await platform.http.get("/api/v2/user", { token: admin, query: { selectTeamIds: "nope" } });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({
      status: 400,
      key: "selectTeamIds.error.invalid",
      message: expect.stringContaining("'nope' is not a team id"),
      details: { parameter: "selectTeamIds", value: "nope" },
    });
    const unknown = await platform.http.get("/api/v2/user", { token: admin, query: { selectTeamIds: "0b6f1c2e-8d3a-4c5b-9e7f-1a2b3c4d5e6f" } });
    expect(unknown.status, unknown.text).toBe(200);
    expect(unknown.body.content).toEqual([]);
  });
});
