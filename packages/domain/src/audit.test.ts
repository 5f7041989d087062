import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_NAMES, AUDIT_ENTITY_TYPES, auditChange, changedFields, entityTypeOf, ERASED, erasePersonal, isAuditedActor, isSecretField, REDACTED } from './audit';

describe('issue 23 point 8: what the audit log keeps of a change', () => {
  it('an edit keeps only the changed fields, each with its value before and after', () => {
    const change = auditChange({ appName: 'Rideway', bonus: 5, otp_secure: false }, { appName: 'Rideway', bonus: 7.5, otp_secure: true });
    expect(change).toEqual({ before: { bonus: 5, otp_secure: false }, after: { bonus: 7.5, otp_secure: true } });
    expect(changedFields(change ?? { before: null, after: null })).toEqual(['bonus', 'otp_secure']);
  });

  it('a field on one side only is null on the other; nested values compare whole', () => {
    expect(auditChange({ a: 1 }, { a: 1, b: 'new' })).toEqual({ before: { b: null }, after: { b: 'new' } });
    expect(auditChange({ area: [[{ lat: 1, lng: 2 }]] }, { area: [[{ lat: 1, lng: 2 }]] })).toBeNull();
    expect(auditChange({ area: [[{ lat: 1, lng: 2 }]] }, { area: [] })).toEqual({ before: { area: [[{ lat: 1, lng: 2 }]] }, after: { area: [] } });
  });

  it('nothing changed is no entry', () => {
    expect(auditChange({ a: 1, b: null }, { a: 1, b: undefined })).toBeNull();
    expect(auditChange(null, null)).toBeNull();
  });

  it('a creation keeps the new record (its set fields), a deletion the old one', () => {
    expect(auditChange(null, { name: 'Van', image: null, base_fare: 3 })).toEqual({ before: null, after: { name: 'Van', base_fare: 3 } });
    expect(auditChange({ label: 'Late', value: 2 }, null)).toEqual({ before: { label: 'Late', value: 2 }, after: null });
  });

  it('secrets are redacted by name at any depth, after the comparison: a changed password shows as changed, never its value', () => {
    const change = auditChange(
      { firstName: 'Ann', passwordHash: '$argon2id$old', pushToken: null, keys: { auth: 'x' } },
      { firstName: 'Ann', passwordHash: '$argon2id$new', pushToken: 'ExponentPushToken[abc]', keys: { auth: 'y', twoFactorSecret: 'JBSW' } },
    );
    expect(change).toEqual({
      before: { passwordHash: REDACTED, pushToken: null, keys: { auth: 'x' } },
      after: { passwordHash: REDACTED, pushToken: REDACTED, keys: { auth: 'y', twoFactorSecret: REDACTED } },
    });
    expect(JSON.stringify(change)).not.toMatch(/argon2id|ExponentPushToken|JBSW/);
    expect(auditChange(null, { email: 'a@b.c', passwordHash: 'h', recoveryCodes: ['1'], api_key: 'k' })).toEqual({ after: { email: 'a@b.c', passwordHash: REDACTED, recoveryCodes: REDACTED, api_key: REDACTED }, before: null });
  });

  it('secret names: passwords, hashes, tokens, secrets, recovery codes, keys; settings such as otp_secure are not', () => {
    for (const field of ['password', 'passwordHash', 'tokenHash', 'driver_token', 'secret', 'recoveryCodes', 'clientCredential', 'apiKey', 'private_key']) expect(isSecretField(field), field).toBe(true);
    for (const field of ['otp_secure', 'email', 'license', 'approved', 'bankAccount', 'serviceArea', 'numberKey']) expect(isSecretField(field), field).toBe(false);
  });

  it('values become JSON: undefined drops out, a date is its epoch ms, an instance its JSON form, a function nothing', () => {
    class Point {
      constructor(readonly lat: number) {}
    }
    expect(auditChange(null, { at: new Date(5), big: 7n, huge: 2n ** 64n, nan: Number.NaN, gone: undefined, point: new Point(1), call: () => 1 })).toEqual({
      before: null,
      after: { at: 5, big: 7, huge: '18446744073709551616', nan: 'NaN', point: { lat: 1 } },
    });
  });

  it("a deleted account's entries keep which personal fields changed, never their values", () => {
    expect(erasePersonal({ email: 'a@b.c', mobile: null, approved: false, reason: 'No-shows', usertype: 'rider' })).toEqual({ email: ERASED, mobile: null, approved: false, reason: ERASED, usertype: 'rider' });
    expect(erasePersonal(null)).toBeNull();
  });

  it('every action names its entity type; admins and fleet admins are audited, riders and drivers not', () => {
    expect(entityTypeOf('settings.update')).toBe('settings');
    expect(entityTypeOf('wallet.credit')).toBe('wallet');
    for (const action of AUDIT_ACTION_NAMES) expect(AUDIT_ENTITY_TYPES).toContain(entityTypeOf(action));
    expect(['admin', 'fleetadmin', 'rider', 'driver'].map(isAuditedActor)).toEqual([true, true, false, false]);
  });
});
