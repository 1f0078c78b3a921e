import { z } from "zod";

export type Env = Record<string, string | undefined>;

/** Thrown by loadConfig; `issues` has one line per bad variable. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Validates the environment against a zod schema (usually a z.object of
 * env var names). Empty strings count as unset, so `FOO=` in a compose file
 * falls back to the default instead of failing number/url parsing.
 * Values are never echoed in the error: some of them are secrets.
 */
export function loadConfig<T extends z.ZodType>(schema: T, env: Env = process.env): z.output<T> {
  const cleaned: Env = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== "") cleaned[key] = value;
  }
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = issue.path.map(String).join(".") || "(root)";
      const missing = issue.path.length === 1 && cleaned[String(issue.path[0])] === undefined;
      return missing ? `${name}: required but not set` : `${name}: ${issue.message}`;
    }),
  );
}
