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
  ackWaitMs: number;
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

  // Keeps a slow-but-healthy handler from being redelivered elsewhere mid-flight.
  const keepAlive = setInterval(() => msg.working(), Math.max(ctx.ackWaitMs / 2, 500));
  try {
    const outcome = await deliver(policy, ctx.handler, event, attempt, carrierFromEnvelope(event, headerCarrier(msg)));
    if (outcome.kind === "ack") msg.ack();
    else if (outcome.kind === "retry") msg.nak(outcome.delayMs);
    else await settleDead(ctx, msg, { consumer: policy.consumer, attempts: attempt, error: outcome.error, event });
  } finally {
    clearInterval(keepAlive);
  }
}

async function settleDead(ctx: MessageContext, msg: JsMsg, info: DeadLetterInfo): Promise<void> {
  if (await ctx.deadLetter(info)) msg.term(String(info.error).slice(0, 200));
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
