// Media's replica of core's customers (the tenant row: restricted, expiration, storage quota)
// must end where core is, whatever order customer events arrive in: one that failed is retried
// after later ones went through, and must then not undo them. "restricted: true disables all
// access": a redelivered older customer.updated must not lift a newer restriction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { coreModule } from "@signage/core";
import { mediaModule } from "@signage/media";
import { eventually, startPlatform, type TestPlatform } from "@signage/testing";

let platform: TestPlatform;
const media = () => platform.knexOf("media");

beforeAll(async () => {
  platform = await startPlatform({ modules: [coreModule, mediaModule], prefix: "media_tenant_order" });
}, 60_000);
afterAll(() => platform?.close(), 30_000);

let nextSeq = 2_000_000;
const seq = () => nextSeq++;

const facts = (id: number, restricted: boolean, storageSize: number | null) => ({ id, ownerSubresellerId: null, networkOwner: false, restricted, expirationDate: null, storageSize });

/** Publishes as core's relay does (with `seq`) and waits until media's tenant consumer has handled it. */
async function deliver(type: string, data: ReturnType<typeof facts>, at: number): Promise<void> {
  const id = randomUUID();
  await platform.bus.publish({ id, type, customerId: data.id, seq: at, data });
  await eventually(() => media()("event_inbox").where({ consumer: "media.tenants", event_id: id }).first(), (row) => row !== undefined, `${type} handled`);
}

describe("tenant replica: a redelivered older customer event never undoes a newer one", () => {
  it("an older customer.updated (unrestricted) arriving after a newer one (restricted) leaves the customer restricted", async () => {
    const customerId = 987_200_001;
    const [created, lifted, restricted] = [seq(), seq(), seq()];
    await deliver("customer.created", facts(customerId, false, null), created);
    await deliver("customer.updated", facts(customerId, true, 1000), restricted);
    await deliver("customer.updated", facts(customerId, false, null), lifted);
    expect(await media()("tenant").where({ customer_id: customerId }).first("restricted", "storage_size")).toEqual({ restricted: true, storage_size: 1000 });
  });

  it("a customer.created retried after an update keeps the update's facts and still makes the root folder", async () => {
    const customerId = 987_200_002;
    const [created, updated] = [seq(), seq()];
    await deliver("customer.updated", facts(customerId, true, 5), updated);
    await deliver("customer.created", facts(customerId, false, null), created);
    expect(await media()("tenant").where({ customer_id: customerId }).first("restricted")).toEqual({ restricted: true });
    expect(await media()("file_folder").where({ customer_id: customerId }).whereNull("parent_id")).toHaveLength(1);
  });

  it("events without a seq (not relayed by an outbox) apply as they arrive", async () => {
    const customerId = 987_200_003;
    await platform.bus.publish({ type: "customer.created", customerId, data: facts(customerId, false, null) });
    await platform.bus.publish({ type: "customer.updated", customerId, data: facts(customerId, true, null) });
    await eventually(() => media()("tenant").where({ customer_id: customerId }).first("restricted"), (row) => row?.restricted === true, "update applied");
  });
});
