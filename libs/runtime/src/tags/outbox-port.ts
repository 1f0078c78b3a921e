// What the event helpers need of a module's transactional outbox (libs/events:
// `ctx.outbox`): store an event in the caller's transaction. A port, so a
// helper cannot publish on the bus behind the transaction's back.
import type { Outbox } from "@signage/events";

export type OutboxPort = Pick<Outbox, "enqueue">;
