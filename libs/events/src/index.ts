export type { EventEnvelope, PublishInput } from "./envelope.js";
export { buildEnvelope, parseEnvelope } from "./envelope.js";
export type { DeadLetterData, EventBus, EventHandler, SubscribeOptions, Subscription } from "./bus.js";
export type { LogFn, Logger } from "./logger.js";
export { noopLogger } from "./logger.js";
export type { RetryDelay } from "./retry.js";
export { DEFAULT_MAX_DELIVER, defaultRetryDelay } from "./retry.js";
export { DEADLETTER_PREFIX, deadLetterType, matchesType } from "./subjects.js";

export type { JetStreamBusOptions } from "./jetstream/bus.js";
export { createJetStreamBus } from "./jetstream/bus.js";
export { ensureStream, type StreamSettings } from "./jetstream/stream.js";

export type { InProcessBusOptions } from "./inprocess/bus.js";
export { createInProcessBus } from "./inprocess/bus.js";

export type { Inbox } from "./inbox/inbox.js";
export type { InboxTableOptions } from "./inbox/table.js";
export { createInboxTable, dropInboxTable, DEFAULT_INBOX_TABLE } from "./inbox/table.js";
export type { KnexInbox } from "./inbox/knex-inbox.js";
export { createKnexInbox } from "./inbox/knex-inbox.js";
export { idempotent } from "./inbox/idempotent.js";
export type { TransactionalHandler } from "./inbox/with-inbox.js";
export { withInbox } from "./inbox/with-inbox.js";
export { createOutbox, DEFAULT_MAX_EVENT_BYTES, type Outbox, type OutboxOptions } from "./outbox/outbox.js";
export { createOutboxTable, dropOutboxTable, DEFAULT_OUTBOX_TABLE } from "./outbox/table.js";
