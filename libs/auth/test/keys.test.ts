import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Role } from "@signage/contracts/signage/common/v1/role_pb";
import {
  createTokenIssuer,
  createTokenVerifier,
  generateSigningKeys,
  importPublicKey,
  loadOrCreateSigningKeys,
  PRIVATE_KEY_FILE,
  PUBLIC_KEY_FILE,
} from "../src/index.js";

const subject = {
  subject: "a@example.com",
  userId: "1",
  customerId: 3,
  role: Role.EDITOR,
  networkOwner: false,
  twoFactor: false,
  kind: "user",
} as const;

describe("signing keys", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "auth-keys-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("are persisted to a dir (0600) and reloaded, so tokens survive an embedded restart", async () => {
    const first = await loadOrCreateSigningKeys({ dir });
    expect((await stat(join(dir, PRIVATE_KEY_FILE))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir, PUBLIC_KEY_FILE), "utf8")).toBe(first.publicKey.pem);

    const { token } = await createTokenIssuer({ signingKeys: first }).issueAccessToken(subject);
    const restarted = await loadOrCreateSigningKeys({ dir });
    expect(restarted.privateKeyPem).toBe(first.privateKeyPem);
    const caller = await createTokenVerifier({ publicKey: restarted.publicKey }).verify(token);
    expect(caller.customerId).toBe(3);
  });

  it("two concurrent starts on one dir agree on one key", async () => {
    const [a, b] = await Promise.all([loadOrCreateSigningKeys({ dir }), loadOrCreateSigningKeys({ dir })]);
    expect(a.privateKeyPem).toBe(b.privateKeyPem);
  });

  it("env-provided PEMs win over the dir", async () => {
    const env = generateSigningKeys("EdDSA");
    const keys = await loadOrCreateSigningKeys({
      privateKeyPem: env.privateKeyPem,
      publicKeyPem: env.publicKey.pem,
      dir,
    });
    expect(keys.alg).toBe("EdDSA");
    expect(keys.publicKey.pem).toBe(env.publicKey.pem);
    await expect(stat(join(dir, PRIVATE_KEY_FILE))).rejects.toThrow();
  });

  it("refuse a public key that does not match the private key", async () => {
    await expect(
      loadOrCreateSigningKeys({
        privateKeyPem: generateSigningKeys().privateKeyPem,
        publicKeyPem: generateSigningKeys().publicKey.pem,
      }),
    ).rejects.toThrow(/does not belong/);
  });

  it("EdDSA keys sign and verify too; a verifying service imports only the public PEM", async () => {
    const keys = generateSigningKeys("EdDSA");
    const { token } = await createTokenIssuer({ signingKeys: keys }).issueAccessToken(subject);
    const caller = await createTokenVerifier({ publicKey: importPublicKey(keys.publicKey.pem) }).verify(token);
    expect(caller.role).toBe(Role.EDITOR);
  });
});
