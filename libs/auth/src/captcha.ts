import type { Caller } from "./caller.js";

/**
 * Verifies the `g-recaptcha-response` header of sensitive calls. Pluggable and off unless a
 * checker is given to the interceptor (the server decides whether it wants CAPTCHA at all).
 */
export interface CaptchaChecker {
  verify(response: string, caller: Caller | undefined): Promise<boolean>;
}
