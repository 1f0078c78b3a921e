// Core's numeric settings from the environment: whole numbers within bounds, or the default when
// unset; anything else stops start-up with a message naming the variable (no silent fallback
// for "1e3", "0x1e" or "1.5", which Number() would accept).
export function wholeNumberSetting(
  env: Record<string, string | undefined>,
  name: string,
  { fallback, min, max, unit }: { fallback: number; min: number; max: number; unit: string },
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) throw new Error(`${name} must be a whole number of ${unit} from ${min} to ${max}, got '${raw}'`);
  return value;
}
