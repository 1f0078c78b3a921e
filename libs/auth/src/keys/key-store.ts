import { link, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { generateSigningKeys, importPrivateKey, importPublicKey, type SigningKeys } from "./signing-keys.js";

export const PRIVATE_KEY_FILE = "jwt-private.pem";
export const PUBLIC_KEY_FILE = "jwt-public.pem";

export interface KeySource {
  /** PKCS#8 PEM, typically from the environment; wins over `dir`. */
  privateKeyPem?: string;
  /** SPKI PEM; when given with `privateKeyPem` it must be the matching half. */
  publicKeyPem?: string;
  /** Directory holding jwt-private.pem / jwt-public.pem, created on first start. */
  dir?: string;
}

/**
 * Signing keys for the token issuer. Env-provided PEMs win; otherwise the pair is read from
 * `dir`, or generated and written there so that an embedded restart keeps issued tokens valid.
 */
export async function loadOrCreateSigningKeys(source: KeySource): Promise<SigningKeys> {
  if (source.privateKeyPem) {
    const keys = importPrivateKey(source.privateKeyPem);
    if (source.publicKeyPem && importPublicKey(source.publicKeyPem).pem !== keys.publicKey.pem) {
      throw new Error("publicKeyPem does not belong to privateKeyPem");
    }
    return keys;
  }
  if (source.publicKeyPem) throw new Error("publicKeyPem without privateKeyPem cannot sign; use importPublicKey to verify only");
  if (!source.dir) throw new Error("signing keys need privateKeyPem or a key directory");

  await mkdir(source.dir, { recursive: true });
  const keys = await readOrCreatePrivateKey(join(source.dir, PRIVATE_KEY_FILE));
  await writePublicKey(join(source.dir, PUBLIC_KEY_FILE), keys.publicKey.pem);
  return keys;
}

async function readOrCreatePrivateKey(path: string): Promise<SigningKeys> {
  const existing = await readIfExists(path);
  if (existing !== undefined) return importPrivateKey(existing);

  // Write a temp file and hard-link it into place: link() refuses to overwrite, so two
  // processes starting together on one data dir agree on the first complete key written.
  const fresh = generateSigningKeys();
  const tmp = `${path}.${randomUUID()}.tmp`;
  await writeFile(tmp, fresh.privateKeyPem, { mode: 0o600 });
  try {
    await link(tmp, path);
    return fresh;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return importPrivateKey(await readFile(path, "utf8"));
  } finally {
    await unlink(tmp);
  }
}

// The public half is always derived from the private key, so the file is only rewritten when it
// is missing or stale. Not secret, but written 0600 like its sibling to keep the dir uniform.
async function writePublicKey(path: string, pem: string): Promise<void> {
  if ((await readIfExists(path)) === pem) return;
  const tmp = `${path}.${randomUUID()}.tmp`;
  await writeFile(tmp, pem, { mode: 0o600 });
  await rename(tmp, path);
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}
