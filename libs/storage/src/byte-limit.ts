// Counts bytes flowing through and fails the stream once a limit is passed,
// so oversized bodies are refused without ever being held.
import { Transform } from "node:stream";
import { BlobTooLargeError, IncompleteBodyError } from "./blob-store.js";

export class ByteCounter extends Transform {
  bytes = 0;

  /** With `exactSize`, a body that ends short fails instead of passing as complete. */
  constructor(private readonly maxSize = Number.POSITIVE_INFINITY, private readonly exactSize?: number) {
    super();
  }

  override _flush(done: (err?: Error | null) => void): void {
    if (this.exactSize !== undefined && this.bytes !== this.exactSize) done(new IncompleteBodyError(this.exactSize, this.bytes));
    else done();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxSize) done(new BlobTooLargeError(this.maxSize));
    else done(null, chunk);
  }
}
