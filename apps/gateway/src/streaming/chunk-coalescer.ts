// Socket and multipart chunks are small (16-64 KiB); one RPC message each
// would spend more on framing than on bytes. This groups them into messages of
// about `target` bytes, holding at most one message's worth at a time.
export class ChunkGroup {
  private pending: Buffer[] = [];
  private size = 0;

  constructor(private readonly target: number) {}

  /** Adds a chunk; returns a group once `target` bytes are together. */
  add(chunk: Buffer): Buffer | undefined {
    if (this.size === 0 && chunk.length >= this.target) return chunk;
    this.pending.push(chunk);
    this.size += chunk.length;
    return this.size >= this.target ? this.take() : undefined;
  }

  /** Whatever is held (a short last group), or undefined when nothing is. */
  take(): Buffer | undefined {
    if (this.size === 0) return undefined;
    const group = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.size);
    this.pending = [];
    this.size = 0;
    return group;
  }
}

export async function* coalesce(source: AsyncIterable<Buffer>, target: number): AsyncGenerator<Buffer> {
  const group = new ChunkGroup(target);
  for await (const chunk of source) {
    const full = group.add(chunk);
    if (full) yield full;
  }
  const rest = group.take();
  if (rest) yield rest;
}
