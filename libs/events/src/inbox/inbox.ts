/**
 * Records which events a consumer has already processed, so at-least-once
 * delivery becomes effectively-once. `Tx` is the storage's transaction type,
 * letting the mark commit atomically with the handler's own writes.
 */
export interface Inbox<Tx = unknown> {
  seen(consumer: string, eventId: string, trx?: Tx): Promise<boolean>;
  markSeen(consumer: string, eventId: string, trx?: Tx): Promise<void>;
}
