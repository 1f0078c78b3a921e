import { describe, expect, it } from "vitest";
import { currentTotpCode, generateTotpSecret, matchTotpStep, totpUri, verifyTotpCode } from "../src/index.js";

describe("TOTP", () => {
  const secret = generateTotpSecret();
  const now = Date.UTC(2025, 0, 1, 12, 0, 15);

  it("accepts the current code and one step either side (window 1), nothing further", () => {
    for (const [offset, ok] of [[0, true], [-30_000, true], [30_000, true], [-60_000, false], [90_000, false]] as const) {
      expect(verifyTotpCode(secret, currentTotpCode(secret, now + offset), { timestamp: now })).toBe(ok);
    }
  });

  // RFC 6238 5.2 "The verifier MUST NOT accept the second attempt of the OTP after the successful
  // validation has been issued for the first OTP": a verifier needs the step a code belongs to.
  it("names the time step (RFC 6238 counter T) a code belongs to, so a verifier can refuse it a second time", () => {
    const step = Math.floor(now / 30_000);
    expect(matchTotpStep(secret, currentTotpCode(secret, now), { timestamp: now })).toBe(step);
    expect(matchTotpStep(secret, currentTotpCode(secret, now - 30_000), { timestamp: now })).toBe(step - 1);
    expect(matchTotpStep(secret, currentTotpCode(secret, now + 30_000), { timestamp: now })).toBe(step + 1);
    expect(matchTotpStep(secret, currentTotpCode(secret, now + 60_000), { timestamp: now })).toBeUndefined();
  });

  it("rejects codes that are not six digits", () => {
    expect(verifyTotpCode(secret, "", { timestamp: now })).toBe(false);
    expect(verifyTotpCode(secret, `${currentTotpCode(secret, now)}0`, { timestamp: now })).toBe(false);
  });

  it("builds an otpauth URI for authenticator apps", () => {
    const uri = totpUri(secret, "jane@example.com");
    expect(uri).toMatch(/^otpauth:\/\/totp\/Signage:jane%40example\.com\?/);
    expect(uri).toContain(`secret=${secret}`);
  });
});
