import { randomFillSync } from "node:crypto";

export type IdGenerator = () => string;

/**
 * UUID v7 (RFC 9562): 48-bit Unix ms timestamp, then randomness, so ids sort
 * by creation time as strings and as PostgreSQL `uuid` (keyset pagination,
 * B-tree locality).
 *
 * Monotonic within one generator (RFC 9562 §6.2 method 1): the 12-bit rand_a
 * field is a counter seeded randomly each millisecond; on overflow, or if the
 * clock goes backwards, the timestamp is advanced artificially.
 */
export function createIdGenerator(now: () => number = Date.now): IdGenerator {
  let lastMs = -1;
  let counter = 0;
  const bytes = new Uint8Array(16);

  return function newId(): string {
    randomFillSync(bytes);
    let ms = now();
    if (ms > lastMs) {
      lastMs = ms;
      // Top bit clear leaves at least 2048 increments before overflow.
      counter = ((bytes[6] & 0x07) << 8) | bytes[7];
    } else {
      counter++;
      if (counter > 0xfff) {
        lastMs++;
        counter = 0;
      }
      ms = lastMs;
    }

    // 48-bit big-endian timestamp (split: JS bitwise ops are 32-bit).
    const hi = Math.floor(ms / 0x1_0000_0000);
    const lo = ms >>> 0;
    bytes[0] = (hi >>> 8) & 0xff;
    bytes[1] = hi & 0xff;
    bytes[2] = (lo >>> 24) & 0xff;
    bytes[3] = (lo >>> 16) & 0xff;
    bytes[4] = (lo >>> 8) & 0xff;
    bytes[5] = lo & 0xff;
    bytes[6] = 0x70 | (counter >>> 8); // version 7
    bytes[7] = counter & 0xff;
    bytes[8] = 0x80 | (bytes[8] & 0x3f); // variant 10

    const hex = Buffer.from(bytes).toString("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

/** Process-wide default; stateless apart from the monotonic counter, so sharing it is harmless. */
export const newId: IdGenerator = createIdGenerator();
