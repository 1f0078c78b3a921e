/**
 * Coalesces point reads by key that arrive in the same turn of the event loop into one
 * statement (`WHERE key = ANY($1)`), sent once the turn's I/O callbacks have run. Under
 * load, every request read in one poll phase then costs one round trip together, not one
 * each. No read is served from the past: a batch is only joined before it is sent, so a
 * read still starts after the request that asked for it arrived (read-your-writes holds).
 *
 * Traces: the statement runs under a span of its own (`<name> batch`, a new trace linked to
 * every caller's span), and each caller gets a `<name>` span from its load to its answer,
 * linked to that batch span. Without this the statement's pg span would appear in the
 * trace of whichever request happened to read first, and in no other.
 */
import { context, SpanKind, SpanStatusCode, trace, type Context, type Link, type Span, type Tracer } from "@opentelemetry/api";

export interface BatchedReads<K, V> {
  load(key: K): Promise<V | undefined>;
}

export interface BatchedReadsOptions<K, V> {
  /** Reads the rows of these distinct keys; a key without a row is simply absent. */
  readMany(keys: K[]): Promise<V[]>;
  keyOf(row: V): K;
  /** Keys per statement (a larger turn is split into several statements). */
  maxBatch?: number;
  /** Span name of a caller's read (default "batched read"). */
  name?: string;
  /** Default: the global tracer provider's "@signage/db" tracer (no-op without telemetry). */
  tracer?: Tracer;
}

interface Waiting<V> {
  resolve(row: V | undefined): void;
  reject(err: unknown): void;
  /** The caller's context and when it asked: its span is made once the batch span exists. */
  caller: Context;
  askedAt: number;
}

export function batchedReads<K, V>(options: BatchedReadsOptions<K, V>): BatchedReads<K, V> {
  const maxBatch = options.maxBatch ?? 100;
  const name = options.name ?? "batched read";
  const tracer = options.tracer ?? trace.getTracer("@signage/db");
  let pending = new Map<K, Waiting<V>[]>();
  let scheduled = false;

  async function send(batch: Map<K, Waiting<V>[]>): Promise<void> {
    const waiters = [...batch.values()].flat();
    const links: Link[] = [];
    for (const w of waiters) {
      const caller = trace.getSpanContext(w.caller);
      if (caller) links.push({ context: caller });
    }
    const attributes = { "db.batch.keys": batch.size, "db.batch.callers": waiters.length };
    await tracer.startActiveSpan(`${name} batch`, { kind: SpanKind.INTERNAL, root: true, links, attributes }, async (batchSpan) => {
      const callerSpans = batchSpan.isRecording() ? waiters.map((w) => callerSpan(w, batchSpan)) : [];
      try {
        const rows = await options.readMany([...batch.keys()]);
        const byKey = new Map(rows.map((row) => [options.keyOf(row), row]));
        for (const span of callerSpans) span.end();
        for (const [key, waiting] of batch) for (const w of waiting) w.resolve(byKey.get(key));
      } catch (err) {
        for (const span of [batchSpan, ...callerSpans]) failed(span, err);
        for (const span of callerSpans) span.end();
        for (const w of waiters) w.reject(err);
      } finally {
        batchSpan.end();
      }
    });
  }

  function callerSpan(w: Waiting<V>, batchSpan: Span): Span {
    return tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: w.askedAt, links: [{ context: batchSpan.spanContext() }] }, w.caller);
  }

  function flush(): void {
    scheduled = false;
    const turn = pending;
    pending = new Map();
    let batch = new Map<K, Waiting<V>[]>();
    for (const [key, waiting] of turn) {
      batch.set(key, waiting);
      if (batch.size === maxBatch) {
        void send(batch);
        batch = new Map();
      }
    }
    if (batch.size > 0) void send(batch);
  }

  return {
    load(key) {
      return new Promise<V | undefined>((resolve, reject) => {
        const w: Waiting<V> = { resolve, reject, caller: context.active(), askedAt: performance.timeOrigin + performance.now() };
        const waiting = pending.get(key);
        if (waiting) waiting.push(w);
        else pending.set(key, [w]);
        if (!scheduled) {
          scheduled = true;
          // After this turn's I/O callbacks (and their microtasks): every request read in it joins.
          setImmediate(flush);
        }
      });
    },
  };
}

function failed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}
