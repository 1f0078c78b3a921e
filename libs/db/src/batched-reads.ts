/**
 * Coalesces point reads by key that arrive in the same turn of the event loop into one
 * statement (`WHERE key = ANY($1)`), sent once the turn's I/O callbacks have run. Under
 * load, every request read in one poll phase then costs one round trip together, not one
 * each. No read is served from the past: a batch is only joined before it is sent, so a
 * read still starts after the request that asked for it arrived (read-your-writes holds).
 */
export interface BatchedReads<K, V> {
  load(key: K): Promise<V | undefined>;
}

export interface BatchedReadsOptions<K, V> {
  /** Reads the rows of these distinct keys; a key without a row is simply absent. */
  readMany(keys: K[]): Promise<V[]>;
  keyOf(row: V): K;
  /** Keys per statement (a larger turn is split into several statements). */
  maxBatch?: number;
}

interface Waiting<V> {
  resolve(row: V | undefined): void;
  reject(err: unknown): void;
}

export function batchedReads<K, V>(options: BatchedReadsOptions<K, V>): BatchedReads<K, V> {
  const maxBatch = options.maxBatch ?? 100;
  let pending = new Map<K, Waiting<V>[]>();
  let scheduled = false;

  async function send(batch: Map<K, Waiting<V>[]>): Promise<void> {
    try {
      const rows = await options.readMany([...batch.keys()]);
      const byKey = new Map(rows.map((row) => [options.keyOf(row), row]));
      for (const [key, waiting] of batch) for (const w of waiting) w.resolve(byKey.get(key));
    } catch (err) {
      for (const waiting of batch.values()) for (const w of waiting) w.reject(err);
    }
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
        const waiting = pending.get(key);
        if (waiting) waiting.push({ resolve, reject });
        else pending.set(key, [{ resolve, reject }]);
        if (!scheduled) {
          scheduled = true;
          // After this turn's I/O callbacks (and their microtasks): every request read in it joins.
          setImmediate(flush);
        }
      });
    },
  };
}
