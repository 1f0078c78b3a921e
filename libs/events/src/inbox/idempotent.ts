import type { EventHandler } from "../bus.js";
import type { Inbox } from "./inbox.js";

/**
 * Skips events the consumer already processed. Check, handle and mark are
 * separate steps, so a crash between handle and mark re-runs the handler:
 * use it for naturally idempotent side effects, and `withInbox` when the
 * handler writes to the same database.
 */
export function idempotent<T>(handler: EventHandler<T>, inbox: Inbox, consumer: string): EventHandler<T> {
  return async (event) => {
    if (await inbox.seen(consumer, event.id)) return;
    await handler(event);
    await inbox.markSeen(consumer, event.id);
  };
}
