import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Security-critical. Authenticator secrets at rest (issue 20 point 5): with TWO_FACTOR_KEY set,
 * each is sealed with AES-256-GCM (a random 96-bit nonce per secret, the tag checked on opening),
 * so a copy of the database alone cannot mint codes. A secret stored before the key was set stays
 * readable as it is, and is sealed when its owner enrols again.
 */
const PREFIX = 'enc:v1:';

/** The key from its configuration text: 32 bytes, as 64 hex digits or base64. */
export function parseSecretKey(text: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('TWO_FACTOR_KEY must be 32 bytes: 64 hex digits or base64');
  return key;
}

export function sealSecret(key: Buffer | undefined, secret: string): string {
  if (!key) return secret;
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `${PREFIX}${[nonce, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join(':')}`;
}

export function openSecret(key: Buffer | undefined, stored: string): string {
  if (!stored.startsWith(PREFIX)) return stored;
  if (!key) throw new Error('an authenticator secret is sealed but TWO_FACTOR_KEY is not set');
  const [nonce, tag, sealed] = stored.slice(PREFIX.length).split(':').map((part) => Buffer.from(part, 'base64url'));
  if (!nonce || !tag || !sealed) throw new Error('a sealed authenticator secret is malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, nonce);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
}
