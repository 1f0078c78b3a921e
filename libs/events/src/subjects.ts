/**
 * Event types are dotted tokens (`customer.created`); subscription patterns may
 * use NATS wildcards: `*` = exactly one token, `>` = one or more trailing tokens.
 * Both adapters share these rules so a pattern means the same thing everywhere.
 */
const TOKEN = /^[A-Za-z0-9_-]+$/;

export function assertEventType(type: string): void {
  const tokens = type.split(".");
  if (!tokens.every((t) => TOKEN.test(t))) {
    throw new Error(`invalid event type "${type}": expected dotted tokens of [A-Za-z0-9_-]`);
  }
}

export function assertTypePattern(pattern: string): void {
  const tokens = pattern.split(".");
  tokens.forEach((t, i) => {
    const ok = TOKEN.test(t) || t === "*" || (t === ">" && i === tokens.length - 1);
    if (!ok) throw new Error(`invalid event type pattern "${pattern}"`);
  });
}

export function matchesType(pattern: string, type: string): boolean {
  const p = pattern.split(".");
  const t = type.split(".");
  for (let i = 0; i < p.length; i++) {
    if (p[i] === ">") return t.length > i;
    if (i >= t.length) return false;
    if (p[i] !== "*" && p[i] !== t[i]) return false;
  }
  return p.length === t.length;
}

export function matchesAny(patterns: readonly string[], type: string): boolean {
  return patterns.some((p) => matchesType(p, type));
}

export function subjectFor(prefix: string, typeOrPattern: string): string {
  return `${prefix}.${typeOrPattern}`;
}

/** Inverse of subjectFor; returns undefined for subjects outside the prefix. */
export function typeFromSubject(prefix: string, subject: string): string | undefined {
  return subject.startsWith(`${prefix}.`) ? subject.slice(prefix.length + 1) : undefined;
}

export const DEADLETTER_PREFIX = "deadletter";

export function deadLetterType(type: string): string {
  return `${DEADLETTER_PREFIX}.${type}`;
}

/** True when every type matched by `narrow` is also matched by `wide`. */
export function patternCovers(wide: string, narrow: string): boolean {
  const w = wide.split(".");
  const n = narrow.split(".");
  for (let i = 0; i < w.length; i++) {
    if (w[i] === ">") return n.length > i;
    if (i >= n.length || n[i] === ">") return false;
    if (w[i] === "*") continue;
    if (n[i] === "*" || w[i] !== n[i]) return false;
  }
  return w.length === n.length;
}

/** Drops duplicates and patterns covered by others (JetStream rejects overlapping filters). */
export function collapsePatterns(patterns: readonly string[]): string[] {
  const unique = [...new Set(patterns)];
  return unique.filter((p) => !unique.some((q) => q !== p && patternCovers(q, p)));
}

export function samePatterns(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
