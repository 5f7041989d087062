import { describe, expect, it } from 'vitest';
import { editableProfileChanges, editableProfileFields, validateProfileUpdate } from './profile';

const phoneUser = { email: 'old@example.com', mobile: '5550100', isEmailLoginUser: false };
const emailUser = { ...phoneUser, isEmailLoginUser: true };

describe('section 5: profile update', () => {
  it('accepts own fields with the simple email pattern', () => {
    expect(validateProfileUpdate({ firstName: 'Ada', email: 'New@Example.org' }, phoneUser)).toEqual({
      ok: true,
      value: { firstName: 'Ada', email: 'new@example.org' },
    });
  });

  it('refuses a bad email with proper_email', () => {
    expect(validateProfileUpdate({ email: 'not-an-email' }, phoneUser)).toEqual({ ok: false, key: 'proper_email', field: 'email' });
  });

  it('disables email and mobile for email-login users', () => {
    expect(editableProfileFields(true)).toEqual(['firstName', 'lastName']);
    expect(validateProfileUpdate({ email: 'other@example.com' }, emailUser)).toEqual({ ok: false, key: 'field_not_editable', field: 'email' });
    // Sending the unchanged value back, as forms do, is fine.
    expect(validateProfileUpdate({ email: 'old@example.com', mobile: '5550100', lastName: 'L' }, emailUser)).toEqual({
      ok: true,
      value: { lastName: 'L' },
    });
  });

  it('never lets an owner set usertype, walletBalance, approved, ratings or any other field', () => {
    for (const field of ['usertype', 'walletBalance', 'approved', 'ratings', 'fleetadmin', 'queue', '__proto__', 'constructor']) {
      const input = JSON.parse(`{"${field}": "x"}`) as unknown;
      expect(validateProfileUpdate(input, phoneUser)).toEqual({ ok: false, key: 'field_not_editable', field });
    }
  });

  it('checks names and mobile with the registration rules', () => {
    expect(validateProfileUpdate({ firstName: ' ' }, phoneUser)).toEqual({ ok: false, key: 'proper_input_name', field: 'firstName' });
    expect(validateProfileUpdate({ mobile: '+1' }, phoneUser)).toEqual({ ok: false, key: 'mobile_no_blank_error', field: 'mobile' });
    expect(validateProfileUpdate('x', phoneUser)).toEqual({ ok: false, key: 'update_failed' });
  });
});

describe('section 5: profile changes on checked fields', () => {
  it('keeps email and mobile of email-login users, dropping them when sent back unchanged', () => {
    expect(editableProfileChanges({ firstName: 'Ada', email: 'old@example.com', mobile: '5550100' }, emailUser)).toEqual({ ok: true, value: { firstName: 'Ada' } });
    expect(editableProfileChanges({ mobile: '5550199' }, emailUser)).toEqual({ ok: false, key: 'field_not_editable', field: 'mobile' });
    expect(editableProfileChanges({ email: 'new@example.org' }, phoneUser)).toEqual({ ok: true, value: { email: 'new@example.org' } });
  });
});
