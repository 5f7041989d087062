import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

describe('password hashing', () => {
  it('stores argon2id with 19456 KiB and 2 passes, and verifies only the right password', async () => {
    const stored = await hashPassword('secret1');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'secret1')).toBe(true);
    expect(await verifyPassword(stored, 'secret2')).toBe(false);
    expect(await verifyPassword(null, 'secret1')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'secret1')).toBe(false);
  });
});
