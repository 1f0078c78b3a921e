import { errors, jwtVerify } from "jose";
import { isCallerRole, roleFromName } from "../roles.js";
import type { Caller } from "../caller.js";
import type { PublicKey } from "../keys/signing-keys.js";
import { accessClaimsSchema } from "./claims.js";
import { TokenError } from "./token-error.js";

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
}

export function createTokenVerifier({
  publicKey,
  issuer = "signage",
  clockToleranceSeconds = 5,
  now = Date.now,
}: TokenVerifierOptions): TokenVerifier {
  return {
    async verify(token) {
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
      return {
        subject: c.sub,
        userId: c.uid,
        customerId: c.cid,
        role,
        networkOwner: c.no,
        twoFactor: c.tfa,
        kind: c.kind,
        token,
      };
    },
  };
}
