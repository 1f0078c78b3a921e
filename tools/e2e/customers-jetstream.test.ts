// The same "refused at once" facts over the real NATS JetStream bus (the cluster composition):
// media's replica learns restriction and deletion from customer.updated / customer.deleted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { createCustomer, createUser, startPlatform, TEST_ADMIN, type TestPlatform } from "@signage/testing";
import { eventually, expectKey } from "./customers-support.js";

let platform: TestPlatform;
let admin: string;
beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], bus: "jetstream", prefix: "customers_js_e2e" });
  admin = await platform.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
}, 60_000);
afterAll(() => platform?.close());

describe("customer access over JetStream", () => {
  it("media refuses a restricted, then a deleted customer's token, and drops its rows", async () => {
    const customer = await createCustomer(platform.http, admin);
    const viewer = await createUser(platform.http, admin, customer.id, "VIEWER");
    const folders = () => platform.http.get("/api/v2/fileFolder", { token: viewer.token });
    expect((await eventually(folders, (r) => r.body?.content?.length === 1)).response.status).toBe(200);

    await platform.http.put(`/api/customer/${customer.id}`, { token: admin, body: { restricted: true } });
    const restricted = await eventually(folders, (r) => r.status === 403);
    expectKey(restricted.response, 403, "auth.error.customerRestricted");

    expect((await platform.http.delete(`/api/customer/${customer.id}`, { token: admin })).status).toBe(204);
    const deleted = await eventually(folders, (r) => r.status === 401);
    expectKey(deleted.response, 401, "auth.error.customerDeleted");
    console.info(`JetStream: media refused after ${restricted.ms} ms (restricted) and ${deleted.ms} ms (deleted)`);
    expect(await platform.knexOf("media")("file_folder").where({ customer_id: customer.id })).toHaveLength(0);
  });
});
