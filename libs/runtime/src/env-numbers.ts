type Env = Record<string, string | undefined>;

/** A positive whole number from `env[name]` (unset or empty: `fallback`); anything else stops the start-up naming the variable. */
export function positiveIntegerFromEnv(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got '${raw}'`);
  return value;
}
