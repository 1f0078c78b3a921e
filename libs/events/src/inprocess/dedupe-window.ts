/** Remembers ids for `windowMs`, like JetStream's duplicate_window. */
export class DedupeWindow {
  // Map keeps insertion order, which is also expiry order, so pruning stops early.
  private readonly expiries = new Map<string, number>();

  constructor(private readonly windowMs: number) {}

  /** True if `id` was seen within the window; otherwise records it. */
  isDuplicate(id: string, now = Date.now()): boolean {
    for (const [key, expiresAt] of this.expiries) {
      if (expiresAt > now) break;
      this.expiries.delete(key);
    }
    if (this.expiries.has(id)) return true;
    this.expiries.set(id, now + this.windowMs);
    return false;
  }
}
