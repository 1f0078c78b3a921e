import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { Role } from "@signage/contracts/signage/common/v1/role_pb";
import { isCallerRole, roleName } from "../roles.js";
import type { CallerKind } from "../caller.js";
import type { SigningKeys } from "../keys/signing-keys.js";

export interface AccessTokenSubject {
  subject: string;
  userId: string;
  customerId: number;
  role: Role;
  networkOwner: boolean;
  twoFactor: boolean;
  /** The user must set up 2FA before anything else (the `f2fa` claim); absent = false. */
  twoFactorSetupRequired?: boolean;
  kind: CallerKind;
}

export interface IssuedToken {
  token: string;
  /** Seconds until expiry, for the OAuth `expires_in` field. */
  expiresIn: number;
}

export interface TokenIssuer {
  issueAccessToken(subject: AccessTokenSubject): Promise<IssuedToken>;
}

export interface TokenIssuerOptions {
  signingKeys: SigningKeys;
  issuer?: string;
  accessTtlSeconds?: number;
  /** Clock in ms; injectable so tests can mint already-expired tokens. */
  now?: () => number;
}

export function createTokenIssuer({
  signingKeys,
  issuer = "signage",
  accessTtlSeconds = 900,
  now = Date.now,
}: TokenIssuerOptions): TokenIssuer {
  return {
    async issueAccessToken(s) {
      if (!isCallerRole(s.role)) throw new RangeError(`role ${s.role} cannot be granted to a caller`);
      const iat = Math.floor(now() / 1000);
      const token = await new SignJWT({
        uid: s.userId,
        cid: s.customerId,
        role: roleName(s.role),
        no: s.networkOwner,
        tfa: s.twoFactor,
        f2fa: s.twoFactorSetupRequired === true,
        kind: s.kind,
      })
        .setProtectedHeader({ alg: signingKeys.alg, typ: "at+jwt" })
        .setSubject(s.subject)
        .setIssuer(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(iat + accessTtlSeconds)
        .setJti(randomUUID())
        .sign(signingKeys.privateKey);
      return { token, expiresIn: accessTtlSeconds };
    },
  };
}
