import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";

/** JWS algorithms we sign with; chosen from the key type, never from a token header. */
export type SigningAlgorithm = "ES256" | "EdDSA";

export interface PublicKey {
  alg: SigningAlgorithm;
  key: KeyObject;
  pem: string;
}

export interface SigningKeys {
  alg: SigningAlgorithm;
  privateKey: KeyObject;
  privateKeyPem: string;
  publicKey: PublicKey;
}

/** A fresh key pair: ES256 (P-256) by default, EdDSA (Ed25519) on request. */
export function generateSigningKeys(alg: SigningAlgorithm = "ES256"): SigningKeys {
  const { privateKey } =
    alg === "EdDSA" ? generateKeyPairSync("ed25519") : generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  return fromPrivateKey(privateKey);
}

/** Imports a PKCS#8 private key PEM; the public half is derived from it. */
export function importPrivateKey(pem: string): SigningKeys {
  return fromPrivateKey(createPrivateKey(pem));
}

/** Imports an SPKI public key PEM (what verifying services are given). */
export function importPublicKey(pem: string): PublicKey {
  const key = createPublicKey(pem);
  return { alg: algorithmOf(key), key, pem: exportPem(key) };
}

function fromPrivateKey(privateKey: KeyObject): SigningKeys {
  const alg = algorithmOf(privateKey);
  const publicKey = createPublicKey(privateKey);
  return {
    alg,
    privateKey,
    privateKeyPem: exportPem(privateKey),
    publicKey: { alg, key: publicKey, pem: exportPem(publicKey) },
  };
}

function algorithmOf(key: KeyObject): SigningAlgorithm {
  if (key.asymmetricKeyType === "ed25519") return "EdDSA";
  if (key.asymmetricKeyType === "ec" && key.asymmetricKeyDetails?.namedCurve === "prime256v1") return "ES256";
  throw new TypeError(`unsupported signing key type ${key.asymmetricKeyType}; use P-256 (ES256) or Ed25519 (EdDSA)`);
}

function exportPem(key: KeyObject): string {
  const pem = key.type === "private" ? key.export({ type: "pkcs8", format: "pem" }) : key.export({ type: "spki", format: "pem" });
  return pem.toString();
}
