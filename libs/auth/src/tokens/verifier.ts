import { errors, jwtVerify } from "jose";
import { isCallerRole, roleFromName } from "../roles.js";
import type { Caller } from "../caller.js";
import type { PublicKey } from "../keys/signing-keys.js";
import { accessClaimsSchema } from "./claims.js";
import { TokenError } from "./token-error.js";
import { createVerifiedTokenCache } from "./verified-token-cache.js";

export interface TokenVerifier {
  /** The caller of a valid access token; throws TokenError otherwise. */
  verify(token: string): Promise<Caller>;
}

export interface TokenVerifierOptions {
  publicKey: PublicKey;
  issuer?: string;
  clockToleranceSeconds?: number;
  /** Clock in ms; injectable for tests. */
  now?: () => number;
  /** Verified tokens remembered until they expire; 0 turns the cache off. Default 10,000. */
  cacheSize?: number;
}

export function createTokenVerifier({
  publicKey,
  issuer = "signage",
  clockToleranceSeconds = 5,
  now = Date.now,
  cacheSize = 10_000,
}: TokenVerifierOptions): TokenVerifier {
  const cache = cacheSize > 0 ? createVerifiedTokenCache(cacheSize, now) : undefined;
  return {
    async verify(token) {
      const cached = cache?.get(token);
      if (cached) return cached;
      let payload: unknown;
      try {
        ({ payload } = await jwtVerify(token, publicKey.key, {
          issuer,
          // Pin the algorithm to the key's own, so a token header cannot pick a weaker one.
          algorithms: [publicKey.alg],
          typ: "at+jwt",
          requiredClaims: ["exp", "iat", "jti", "sub"],
          clockTolerance: clockToleranceSeconds,
          currentDate: new Date(now()),
        }));
      } catch (err) {
        if (err instanceof errors.JWTExpired) throw new TokenError("expired", "access token expired", { cause: err });
        throw new TokenError("invalid", "access token invalid", { cause: err });
      }
      const claims = accessClaimsSchema.safeParse(payload);
      if (!claims.success) throw new TokenError("invalid", "access token claims invalid", { cause: claims.error });
      const role = roleFromName(claims.data.role);
      if (role === undefined || !isCallerRole(role)) throw new TokenError("invalid", "access token role invalid");
      const c = claims.data;
      const caller: Caller = {
        subject: c.sub,
        userId: c.uid,
        customerId: c.cid,
        role,
        networkOwner: c.no,
        twoFactor: c.tfa,
        twoFactorSetupRequired: c.f2fa ?? false,
        kind: c.kind,
        issuedAt: (payload as { iat: number }).iat,
        token,
      };
      // Remembered until exp (jose checked that it is present and numeric).
      cache?.set(token, caller, (payload as { exp: number }).exp * 1000);
      return caller;
    },
  };
}
