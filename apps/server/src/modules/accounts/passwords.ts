/** Security-critical: passwords are stored only as argon2id hashes (OWASP minimum: 19 MiB, 2 passes). */
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id is 2; the package's const enum cannot be imported under verbatimModuleSyntax.
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

// Verifying against this when the account does not exist keeps the answer time the same, so
// timing does not tell which emails have accounts.
let decoyHash: Promise<string> | undefined;

export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    decoyHash ??= hashPassword('decoy-password');
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
