// The HTTP Range header, single byte range only (RFC 9110 lets a server
// ignore what it does not support: multiple or malformed ranges get the
// whole body).
import type { ByteRange } from "@signage/storage";

export type ParsedRange = ByteRange | { suffix: number } | undefined;

export function parseRange(header: string | undefined): ParsedRange {
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header ?? "");
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") return { suffix: Number(m[2]) };
  const start = Number(m[1]);
  const end = m[2] === "" ? undefined : Number(m[2]);
  if (end !== undefined && end < start) return undefined;
  return { start, end };
}

/** A suffix range (`bytes=-500`) as an absolute range, once the size is known. */
export function absoluteRange(range: ParsedRange, size: number): ByteRange | undefined {
  if (!range) return undefined;
  if ("suffix" in range) return range.suffix === 0 ? { start: size } : { start: Math.max(0, size - range.suffix) };
  return range;
}
