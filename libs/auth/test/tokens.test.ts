import { describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { createTokenIssuer, createTokenVerifier, generateSigningKeys, TokenError } from "../src/index.js";

const keys = generateSigningKeys();
const verifier = createTokenVerifier({ publicKey: keys.publicKey });
const subject = {
  subject: "owner@example.com",
  userId: "7",
  customerId: 10,
  role: Role.OWNER,
  networkOwner: true,
  twoFactor: true,
  twoFactorSetupRequired: true,
  kind: "user",
} as const;

async function reason(token: string) {
  const err = await verifier.verify(token).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TokenError);
  return (err as TokenError).reason;
}

describe("access tokens", () => {
  it("round-trip every claim into a Caller", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { token, expiresIn } = await createTokenIssuer({ signingKeys: keys }).issueAccessToken(subject);
    expect(expiresIn).toBe(900);
    const caller = await verifier.verify(token);
    expect(caller.issuedAt).toBeGreaterThanOrEqual(before);
    expect(caller.issuedAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(caller).toEqual({
      subject: "owner@example.com",
      userId: "7",
      customerId: 10,
      role: Role.OWNER,
      networkOwner: true,
      twoFactor: true,
      twoFactorSetupRequired: true,
      kind: "user",
      issuedAt: caller.issuedAt,
      token,
    });
  });

  it("reject an expired token", async () => {
    const past = createTokenIssuer({ signingKeys: keys, now: () => Date.now() - 3_600_000 });
    expect(await reason((await past.issueAccessToken(subject)).token)).toBe("expired");
  });

  it("reject a tampered payload", async () => {
    const { token } = await createTokenIssuer({ signingKeys: keys }).issueAccessToken({ ...subject, role: Role.VIEWER });
    const [h, p, s] = token.split(".");
    const claims = JSON.parse(Buffer.from(p, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, role: "ADMIN" })).toString("base64url");
    expect(await reason(`${h}.${forged}.${s}`)).toBe("invalid");
  });

  it("reject another key, another issuer, garbage and alg=none", async () => {
    const other = createTokenIssuer({ signingKeys: generateSigningKeys() });
    expect(await reason((await other.issueAccessToken(subject)).token)).toBe("invalid");
    const foreign = createTokenIssuer({ signingKeys: keys, issuer: "elsewhere" });
    expect(await reason((await foreign.issueAccessToken(subject)).token)).toBe("invalid");
    expect(await reason("not-a-jwt")).toBe("invalid");
    const none = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString("base64url")}.${Buffer.from("{}").toString("base64url")}.`;
    expect(await reason(none)).toBe("invalid");
  });

  it("reject a correctly signed token with bad claims (unknown role, missing cid)", async () => {
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", typ: "at+jwt" })
        .setSubject("x")
        .setIssuer("signage")
        .setIssuedAt()
        .setExpirationTime("5m")
        .setJti("j")
        .sign(keys.privateKey);
    const base = { uid: "1", cid: 3, role: "OWNER", no: false, tfa: false, kind: "user" };
    expect(await verifier.verify(await sign(base))).toMatchObject({ role: Role.OWNER });
    expect(await reason(await sign({ ...base, role: "PUBLIC" }))).toBe("invalid");
    expect(await reason(await sign({ ...base, role: "SUPERUSER" }))).toBe("invalid");
    expect(await reason(await sign({ ...base, cid: undefined }))).toBe("invalid");
  });

  it("refuse to issue a token for a non-caller role", async () => {
    await expect(
      createTokenIssuer({ signingKeys: keys }).issueAccessToken({ ...subject, role: Role.PUBLIC }),
    ).rejects.toThrow(RangeError);
  });
});
