import type { Caller } from "./caller.js";

/**
 * Verifies the `g-recaptcha-response` header of sensitive calls. Pluggable and off unless a
 * checker is given to the interceptor (the server decides whether it wants CAPTCHA at all).
 */
export interface CaptchaChecker {
  verify(response: string, caller: Caller | undefined): Promise<boolean>;
}

export interface RecaptchaVerifierOptions {
  secret: string;
  /** The provider's siteverify endpoint (reCAPTCHA-compatible providers share the protocol). */
  endpoint?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const DEFAULT_RECAPTCHA_ENDPOINT = "https://www.google.com/recaptcha/api/siteverify";

/**
 * A reCAPTCHA-protocol verifier: POSTs `secret` and `response` form-encoded and trusts the
 * answer's `success`. Any transport failure counts as "not verified" (fail closed).
 */
export function createRecaptchaVerifier({ secret, endpoint = DEFAULT_RECAPTCHA_ENDPOINT, timeoutMs = 5000, fetch: doFetch = fetch }: RecaptchaVerifierOptions): CaptchaChecker {
  return {
    async verify(response) {
      try {
        const res = await doFetch(endpoint, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ secret, response }),
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!res.ok) return false;
        const body = (await res.json()) as { success?: unknown };
        return body.success === true;
      } catch {
        return false;
      }
    },
  };
}

/** CAPTCHA from the environment: `RECAPTCHA_SECRET` turns it on (`RECAPTCHA_VERIFY_URL` overrides the endpoint). Off otherwise. */
export function captchaFromEnv(env: Record<string, string | undefined>): CaptchaChecker | undefined {
  const secret = env.RECAPTCHA_SECRET?.trim();
  if (!secret) return undefined;
  return createRecaptchaVerifier({ secret, endpoint: env.RECAPTCHA_VERIFY_URL?.trim() || undefined });
}
