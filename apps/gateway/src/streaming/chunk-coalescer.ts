// Socket and multipart chunks are small (16-64 KiB); one RPC message each
// would spend more on framing than on bytes. This groups them into messages of
// about `target` bytes, holding at most one message's worth at a time.
export async function* coalesce(source: AsyncIterable<Buffer>, target: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    if (size === 0 && chunk.length >= target) {
      yield chunk;
      continue;
    }
    pending.push(chunk);
    size += chunk.length;
    if (size >= target) {
      yield pending.length === 1 ? pending[0] : Buffer.concat(pending, size);
      pending = [];
      size = 0;
    }
  }
  if (size > 0) yield pending.length === 1 ? pending[0] : Buffer.concat(pending, size);
}
