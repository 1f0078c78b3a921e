import { connect, type JetStreamManager, type NatsConnection } from "nats";
import { createJetStreamBus, type EventBus, type JetStreamBusOptions } from "../../src/index.js";
import { NATS_URL, uniqueToken } from "./env.js";

/**
 * Each world is a private stream + subject prefix on the shared server, so
 * parallel runs never see each other's events; dispose() deletes it.
 */
export interface JetStreamWorld {
  streamName: string;
  subjectPrefix: string;
  jsm: JetStreamManager;
  nc: NatsConnection;
  /** A new bus (own connection) on this world's stream. */
  bus(overrides?: Partial<JetStreamBusOptions>): Promise<EventBus>;
  dispose(): Promise<void>;
}

export async function createJetStreamWorld(defaults: Partial<JetStreamBusOptions> = {}): Promise<JetStreamWorld> {
  const token = uniqueToken();
  const streamName = `EVTEST_${token}`;
  const subjectPrefix = `evtest_${token}`;
  const nc = await connect({ servers: NATS_URL });
  const jsm = await nc.jetstreamManager();
  const buses: EventBus[] = [];
  return {
    streamName,
    subjectPrefix,
    jsm,
    nc,
    async bus(overrides = {}) {
      const bus = await createJetStreamBus({ servers: NATS_URL, streamName, subjectPrefix, ...defaults, ...overrides });
      buses.push(bus);
      return bus;
    },
    async dispose() {
      await Promise.all(buses.map((b) => b.close()));
      await jsm.streams.delete(streamName).catch(() => undefined);
      await nc.close();
    },
  };
}
