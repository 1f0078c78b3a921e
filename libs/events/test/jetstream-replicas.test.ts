// The events stream's replica count (NATS_STREAM_REPLICAS) against the real NATS server, a
// single server here: it holds 1 replica, and refuses more with a message naming the setting.
import { afterEach, describe, expect, it } from "vitest";
import { createJetStreamWorld, type JetStreamWorld } from "./helpers/jetstream.js";

describe("JetStream stream replicas", () => {
  let world: JetStreamWorld | undefined;
  afterEach(async () => {
    await world?.dispose();
    world = undefined;
  });

  it("creates the stream with the configured replica count", async () => {
    world = await createJetStreamWorld();
    await world.bus({ replicas: 1 });
    expect((await world.jsm.streams.info(world.streamName)).config.num_replicas).toBe(1);
  });

  it("a count the server cannot hold fails the start with a message naming NATS_STREAM_REPLICAS", async () => {
    world = await createJetStreamWorld();
    await expect(world.bus({ replicas: 3 })).rejects.toThrow(/JetStream refused 3 replicas for stream EVTEST_\w+ \(NATS_STREAM_REPLICAS/);
  });

  it("is applied to an existing stream of another count (refused here, so the start fails clearly)", async () => {
    world = await createJetStreamWorld();
    await world.bus({ replicas: 1 });
    await expect(world.bus({ replicas: 2 })).rejects.toThrow(/JetStream refused 2 replicas for stream EVTEST_\w+ \(NATS_STREAM_REPLICAS/);
    expect((await world.jsm.streams.info(world.streamName)).config.num_replicas).toBe(1);
  });

  it("unset, an existing stream keeps its count, and a matching count starts as before", async () => {
    world = await createJetStreamWorld();
    await world.bus({ replicas: 1 });
    await world.bus();
    await world.bus({ replicas: 1 });
    expect((await world.jsm.streams.info(world.streamName)).config.num_replicas).toBe(1);
  });
});
