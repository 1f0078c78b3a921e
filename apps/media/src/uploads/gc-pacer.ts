// Upload bodies reach media as ~1 MiB RPC messages. Their buffers often live
// just long enough (queued for the disk write) to be promoted out of V8's
// young generation, and V8 then frees them only at a major GC, which it starts
// once ~64 MB of such memory has piled up: a 1 GiB upload would swing media's
// resident memory by tens of MB. When the process runs with --expose-gc (the
// image does, k8s/Dockerfile), an incremental major GC is started every
// PACE_BYTES of body instead, so dead buffers go back within a few tens of MB.
// Without --expose-gc this is a byte counter and nothing else.
import { Transform, type TransformCallback } from "node:stream";

const PACE_BYTES = 32 * 1024 * 1024;

type GcFunction = (options?: { type?: "major" | "minor"; execution?: "sync" | "async" }) => void;

export class GcPacer {
  private sinceLast = 0;

  constructor(private readonly gc: GcFunction | undefined, private readonly paceBytes = PACE_BYTES) {}

  observe(bytes: number): void {
    if (!this.gc) return;
    this.sinceLast += bytes;
    if (this.sinceLast < this.paceBytes) return;
    this.sinceLast = 0;
    this.gc({ type: "major", execution: "async" });
  }

  /** A pass-through stream that paces on the bytes flowing through it. */
  through(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) => {
        this.observe(chunk.length);
        done(null, chunk);
      },
    });
  }
}

// Process-wide on purpose: it paces the one heap every upload allocates from.
export const uploadGcPacer = new GcPacer((globalThis as { gc?: GcFunction }).gc);
