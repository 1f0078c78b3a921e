// A pull-based multipart/form-data parser (RFC 2046 5.1, RFC 7578). It yields
// each form-data part's head, then the part's bytes as views into the chunks
// it was given: the delimiter is found with Buffer#indexOf (native), and only
// a possible delimiter prefix at a chunk's end (under 80 bytes) is ever held
// back or copied. It reads the next chunk only when its consumer asks, so a
// slow consumer stops the socket (backpressure). busboy, which this replaces
// on the upload path, scanned every byte in JavaScript and capped an upload at
// about 400 MB/s on our machines.
import { MultipartError } from "./multipart-error.js";
import { parseHeaderLines, partHead, type PartHead } from "./part-headers.js";

export type MultipartItem = { kind: "head"; head: PartHead } | { kind: "data"; chunk: Buffer };

/** A part's header block may not exceed this (Node's own limit for HTTP headers). */
export const MAX_PART_HEADER_BYTES = 16 * 1024;
/** Transport padding (spaces, tabs) allowed after a delimiter. */
const MAX_PADDING = 256;

const EMPTY = Buffer.alloc(0);
const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");
const CR = 13;
const LF = 10;
const DASH = 45;

type State = "preamble" | "afterDelimiter" | "headers" | "body" | "epilogue";

/**
 * A header block arriving over several chunks: appended (each byte copied once,
 * growth by doubling), searched for its end only past what was searched before.
 * A fresh buffer per block, since body bytes after the block are handed on as
 * views of it.
 */
class HeaderBytes {
  private bytes = EMPTY;
  private length = 0;
  /** The block's end cannot start before this offset (already searched). */
  searched = 0;

  get active(): boolean {
    return this.length > 0;
  }

  start(first: Buffer): void {
    this.bytes = Buffer.allocUnsafe(Math.max(1024, first.length * 2));
    this.length = 0;
    this.append(first);
  }

  append(chunk: Buffer): Buffer {
    if (this.length + chunk.length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + chunk.length));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    chunk.copy(this.bytes, this.length);
    this.length += chunk.length;
    return this.bytes.subarray(0, this.length);
  }

  /** The block is complete: its bytes (and the body bytes after it) now belong to the scan. */
  finish(): void {
    this.bytes = EMPTY;
    this.length = 0;
    this.searched = 0;
  }
}

/**
 * Parts that are not form data (no `Content-Disposition: form-data`) are
 * skipped. Throws MultipartError when the body is malformed or ends before
 * the closing delimiter. After the closing delimiter the rest of the source
 * is read and ignored.
 */
export async function* scanMultipart(source: AsyncIterable<Buffer>, boundary: string): AsyncGenerator<MultipartItem> {
  const delimiter = Buffer.from(`\r\n--${boundary}`, "latin1");
  const d = delimiter.length;
  let state: State = "preamble";
  // Bytes carried into the next chunk. The leading CRLF lets a body that starts
  // right with `--boundary` match the same delimiter as every later part.
  let pending: Buffer = CRLF;
  let skipping = true; // the current part is not form data (and the preamble is never data)
  const header = new HeaderBytes();

  for await (const input of source) {
    if (state === "epilogue") continue;
    let buf = input;
    let at = 0;
    let headerSearchFrom = 0;
    if (header.active) {
      headerSearchFrom = header.searched;
      buf = header.append(input);
    } else if (pending.length > 0 && state === "body" && input.length >= d - 1) {
      // Held-back tail + this chunk's first bytes: does a delimiter straddle them?
      const probe = Buffer.concat([pending, input.subarray(0, d - 1)]);
      const found = probe.indexOf(delimiter);
      if (found !== -1 && found < pending.length) {
        if (!skipping && found > 0) yield { kind: "data", chunk: pending.subarray(0, found) };
        at = found + d - pending.length;
        state = "afterDelimiter";
      } else if (!skipping) {
        yield { kind: "data", chunk: pending };
      }
      pending = EMPTY;
    } else if (pending.length > 0) {
      buf = Buffer.concat([pending, input]);
      pending = EMPTY;
    }

    scan: while (at < buf.length) {
      switch (state) {
        case "preamble":
        case "body": {
          const found = buf.indexOf(delimiter, at);
          if (found !== -1) {
            if (!skipping && found > at) yield { kind: "data", chunk: buf.subarray(at, found) };
            at = found + d;
            state = "afterDelimiter";
            continue;
          }
          const hold = heldBackFrom(buf, at, delimiter);
          if (!skipping && hold > at) yield { kind: "data", chunk: buf.subarray(at, hold) };
          pending = Buffer.from(buf.subarray(hold)); // a copy: never pin the whole chunk for a few bytes
          break scan;
        }
        case "afterDelimiter": {
          if (buf.length - at < 2) break scan;
          if (buf[at] === DASH && buf[at + 1] === DASH) {
            state = "epilogue";
            break scan;
          }
          let i = at;
          while (i < buf.length && (buf[i] === 0x20 || buf[i] === 0x09)) i++;
          if (i - at > MAX_PADDING) throw new MultipartError("Malformed boundary line: too much padding after the boundary");
          if (buf.length - i < 2) break scan;
          if (buf[i] !== CR || buf[i + 1] !== LF) throw new MultipartError("Malformed boundary line: the boundary is followed by neither CRLF nor '--'");
          at = i + 2;
          state = "headers";
          continue;
        }
        case "headers": {
          if (buf.length - at < 2) {
            if (!header.active && at < buf.length) header.start(buf.subarray(at));
            break scan;
          }
          // An empty header block is the CRLF right after the boundary line.
          const end = buf[at] === CR && buf[at + 1] === LF ? at : buf.indexOf(HEADER_END, Math.max(at, headerSearchFrom));
          if (end === -1) {
            // Up to 3 bytes of an unfinished terminator may follow a block of the largest size.
            if (buf.length - at > MAX_PART_HEADER_BYTES + 3) throw new MultipartError(`A part's headers exceed ${MAX_PART_HEADER_BYTES} bytes`);
            // Resumed blocks are the header's own bytes already (at 0); a new one is copied in.
            if (!header.active) header.start(buf.subarray(at));
            header.searched = Math.max(0, buf.length - at - 3);
            break scan;
          }
          header.finish();
          if (end - at > MAX_PART_HEADER_BYTES) throw new MultipartError(`A part's headers exceed ${MAX_PART_HEADER_BYTES} bytes`);
          const head = partHead(parseHeaderLines(buf.toString("utf8", at, end)));
          at = end === at ? at + 2 : end + 4;
          skipping = head === undefined;
          if (head) yield { kind: "head", head };
          state = "body";
          continue;
        }
      }
    }
    // What a state left unread waits for the next chunk (the body states set `pending` themselves).
    if (state === "afterDelimiter" && at < buf.length) pending = Buffer.from(buf.subarray(at));
  }
  if (state !== "epilogue") throw new MultipartError("Unexpected end of form: the body ends before the closing boundary");
}

/** Where the chunk's tail could begin a delimiter that the next chunk completes (buf.length when it cannot). */
function heldBackFrom(buf: Buffer, at: number, delimiter: Buffer): number {
  for (let h = buf.indexOf(CR, Math.max(at, buf.length - delimiter.length + 1)); h !== -1; h = buf.indexOf(CR, h + 1)) {
    if (delimiter.compare(buf, h, buf.length, 0, buf.length - h) === 0) return h;
  }
  return buf.length;
}
