/** A set of at most `maxEntries` values, the oldest dropped first: memos of facts that never go stale. */
export interface BoundedSet<T> {
  has(value: T): boolean;
  add(value: T): void;
}

export function createBoundedSet<T>(maxEntries: number): BoundedSet<T> {
  const values = new Set<T>();
  return {
    has: (value) => values.has(value),
    add(value) {
      if (values.has(value)) return;
      if (values.size >= maxEntries) values.delete(values.values().next().value as T);
      values.add(value);
    },
  };
}
