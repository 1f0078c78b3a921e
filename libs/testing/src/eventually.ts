// Waits for something that arrives asynchronously (an event consumed by another
// service, a replica catching up): polls `probe` until `ok`, else fails with
// the last value seen.
export async function eventually<T>(probe: () => Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (ok(last)) return last;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}
