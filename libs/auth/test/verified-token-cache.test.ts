// The verified-token cache must never widen what a token allows: an entry
// dies with the token's exp, and only the exact same token string hits it.
import { describe, expect, it } from "vitest";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { createTokenIssuer, createTokenVerifier, generateSigningKeys, TokenError } from "../src/index.js";

const keys = generateSigningKeys();
const subject = { subject: "ann@example.com", userId: "u1", customerId: 7, role: Role.OWNER, networkOwner: false, twoFactor: false, kind: "user" as const };

describe("verified token cache", () => {
  it("refuses a cached token once its exp has passed", async () => {
    let clock = Date.now();
    const verifier = createTokenVerifier({ publicKey: keys.publicKey, now: () => clock, clockToleranceSeconds: 0 });
    const { token, expiresIn } = await createTokenIssuer({ signingKeys: keys, now: () => clock }).issueAccessToken(subject);
    expect((await verifier.verify(token)).customerId).toBe(7);
    expect((await verifier.verify(token)).customerId).toBe(7); // served from the cache
    clock += (expiresIn + 1) * 1000;
    await expect(verifier.verify(token)).rejects.toBeInstanceOf(TokenError);
  });

  it("does not serve a tampered copy of a cached token", async () => {
    const verifier = createTokenVerifier({ publicKey: keys.publicKey });
    const { token } = await createTokenIssuer({ signingKeys: keys }).issueAccessToken(subject);
    await verifier.verify(token);
    const [header, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const forged = [header, Buffer.from(JSON.stringify({ ...claims, role: "ADMIN" })).toString("base64url"), signature].join(".");
    await expect(verifier.verify(forged)).rejects.toBeInstanceOf(TokenError);
  });

  it("keeps at most cacheSize entries and still verifies evicted tokens", async () => {
    const verifier = createTokenVerifier({ publicKey: keys.publicKey, cacheSize: 1 });
    const issuer = createTokenIssuer({ signingKeys: keys });
    const a = (await issuer.issueAccessToken(subject)).token;
    const b = (await issuer.issueAccessToken({ ...subject, customerId: 8 })).token;
    expect((await verifier.verify(a)).customerId).toBe(7);
    expect((await verifier.verify(b)).customerId).toBe(8);
    expect((await verifier.verify(a)).customerId).toBe(7);
  });
});
