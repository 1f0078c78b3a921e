import type { JsMsg } from "nats";
import type { EventHandler } from "../bus.js";
import type { DeadLetterInfo } from "../deadletter.js";
import { carrierFromEnvelope, deliver, type DeliveryPolicy } from "../delivery.js";
import { parseEnvelope, type EventEnvelope } from "../envelope.js";
import { resolveRetryDelay } from "../retry.js";
import { matchesAny } from "../subjects.js";
import type { TraceCarrier } from "../tracing.js";

export interface MessageContext {
  policy: DeliveryPolicy;
  types: string[];
  handler: EventHandler<any>;
  deadLetter: (info: DeadLetterInfo) => Promise<boolean>;
}

/** Applies one JetStream delivery: parse, filter, run the handler, then ack / nak / term. */
export async function handleMessage(ctx: MessageContext, msg: JsMsg): Promise<void> {
  const { policy } = ctx;
  const attempt = msg.info.deliveryCount;
  let event: EventEnvelope;
  try {
    event = parseEnvelope(msg.string());
  } catch (error) {
    const raw = { payload: msg.string().slice(0, 65_536), id: `${msg.info.stream}-${msg.seq}` };
    return settleDead(ctx, msg, { consumer: policy.consumer, attempts: attempt, error, event: null, raw });
  }
  // Only reached when an old server forced a wide filter (see filterFor).
  if (!matchesAny(ctx.types, event.type)) return msg.ack();

  if (attempt > policy.maxDeliver) {
    // Earlier attempts never reported back (crash or ack timeout): do not run again.
    const error = new Error(`delivered ${attempt} times without an outcome (handler crashed or exceeded ack wait)`);
    return settleDead(ctx, msg, { consumer: policy.consumer, attempts: attempt, error, event });
  }

  // The pull loop keeps the message alive (working()) from receipt to settlement,
  // so a slow-but-healthy handler is not redelivered elsewhere mid-flight.
  const outcome = await deliver(policy, ctx.handler, event, attempt, carrierFromEnvelope(event, headerCarrier(msg)));
  if (outcome.kind === "ack") msg.ack();
  else if (outcome.kind === "retry") msg.nak(outcome.delayMs);
  else await settleDead(ctx, msg, { consumer: policy.consumer, attempts: attempt, error: outcome.error, event });
}

async function settleDead(ctx: MessageContext, msg: JsMsg, info: DeadLetterInfo): Promise<void> {
  // Plain +TERM, no reason: servers before 2.10 ignore `+TERM <reason>`, which
  // left the message pending, redelivered every ack wait and dead-lettered again
  // forever. The reason is in the error log and the dead letter.
  if (await ctx.deadLetter(info)) msg.term();
  else msg.nak(resolveRetryDelay(ctx.policy.retryDelay, info.attempts));
}

function headerCarrier(msg: JsMsg): TraceCarrier {
  const carrier: TraceCarrier = {};
  for (const key of ["traceparent", "tracestate"]) {
    const value = msg.headers?.get(key);
    if (value) carrier[key] = value;
  }
  return carrier;
}
