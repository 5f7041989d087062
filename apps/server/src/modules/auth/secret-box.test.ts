import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, parseSecretKey, sealSecret } from './secret-box';

describe('authenticator secrets at rest (issue 20 point 5)', () => {
  const key = randomBytes(32);

  it('seals with a fresh nonce each time and opens to the same secret', () => {
    const first = sealSecret(key, 'JBSWY3DPEHPK3PXP');
    const second = sealSecret(key, 'JBSWY3DPEHPK3PXP');
    expect(first).toMatch(/^enc:v1:/);
    expect(first).not.toContain('JBSWY3DPEHPK3PXP');
    expect(first).not.toBe(second);
    expect(openSecret(key, first)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('refuses a changed secret, another key, and a sealed secret without a key', () => {
    const sealed = sealSecret(key, 'JBSWY3DPEHPK3PXP');
    const parts = sealed.split(':');
    const body = Buffer.from(parts[4] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    expect(() => openSecret(key, [...parts.slice(0, 4), body.toString('base64url')].join(':'))).toThrow();
    expect(() => openSecret(randomBytes(32), sealed)).toThrow();
    expect(() => openSecret(undefined, sealed)).toThrow(/TWO_FACTOR_KEY/);
  });

  it('keeps a secret as it is without a key, and reads one stored before the key was set', () => {
    expect(sealSecret(undefined, 'JBSWY3DPEHPK3PXP')).toBe('JBSWY3DPEHPK3PXP');
    expect(openSecret(key, 'JBSWY3DPEHPK3PXP')).toBe('JBSWY3DPEHPK3PXP');
  });

  it('takes the key as 64 hex digits or base64 of 32 bytes, and nothing else', () => {
    expect(parseSecretKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretKey(key.toString('base64'))).toEqual(key);
    expect(() => parseSecretKey('short')).toThrow(/32 bytes/);
  });
});
