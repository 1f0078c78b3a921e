// Watches bytes on their way into the blob store: size, CRC32 ("crcCheckSum:
// CRC32 checksum for duplicate detection") and the first bytes, kept for the
// image header parser. Memory stays bounded by `headerBytes`.
import { Transform, type TransformCallback } from "node:stream";
import { crc32 } from "@node-rs/crc32";

export const HEADER_BYTES = 512 * 1024;

export class FileDigest extends Transform {
  size = 0;
  private crc = 0;
  private headerParts: Buffer[] = [];
  private headerSize = 0;

  constructor(private readonly headerBytes = HEADER_BYTES) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.observe(chunk);
    done(null, chunk);
  }

  observe(chunk: Buffer): void {
    this.size += chunk.length;
    this.crc = crc32(chunk, this.crc);
    if (this.headerSize < this.headerBytes) {
      const take = chunk.subarray(0, this.headerBytes - this.headerSize);
      // Copy: the caller may reuse its buffer.
      this.headerParts.push(Buffer.from(take));
      this.headerSize += take.length;
    }
  }

  /** CRC32 as 8 lowercase hex digits. */
  get checksum(): string {
    return crcHex(this.crc);
  }

  get header(): Buffer {
    return Buffer.concat(this.headerParts, this.headerSize);
  }
}

export function crcHex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, "0");
}

/** A client-sent CRC32 (hex, any case, optional 0x, leading zeros optional) as 8 lowercase hex digits; undefined when malformed. */
export function normaliseCrc(text: string): string | undefined {
  const m = /^(?:0x)?([0-9a-f]{1,8})$/i.exec(text.trim());
  return m ? m[1].toLowerCase().padStart(8, "0") : undefined;
}
