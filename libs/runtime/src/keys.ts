// Token keys for a process: PEMs from the environment (Kubernetes secrets),
// else a key pair kept under DATA_DIR so local restarts keep tokens valid.
import { join } from "node:path";
import { importPublicKey, loadOrCreateSigningKeys, type PublicKey, type SigningKeys } from "@signage/auth";

export interface ProcessKeys {
  publicKey: PublicKey;
  signingKeys?: SigningKeys;
}

export async function loadProcessKeys(env: Record<string, string | undefined>, dataDir: string): Promise<ProcessKeys> {
  const privateKeyPem = env.JWT_PRIVATE_KEY || undefined;
  const publicKeyPem = env.JWT_PUBLIC_KEY || undefined;
  if (publicKeyPem && !privateKeyPem) return { publicKey: importPublicKey(publicKeyPem) };
  const signingKeys = await loadOrCreateSigningKeys({ privateKeyPem, publicKeyPem, dir: privateKeyPem ? undefined : join(dataDir, "keys") });
  return { publicKey: signingKeys.publicKey, signingKeys };
}
