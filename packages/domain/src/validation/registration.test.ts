import { describe, expect, it } from 'vitest';
import { isReferralIdFormat, validateMobile, validateName, validatePassword, validateRegistration } from './registration';

const good = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  password: 'abc123',
  mobile: '5550100',
};

describe('section 5: registration', () => {
  it('accepts a complete form and trims names', () => {
    expect(validateRegistration({ ...good, firstName: ' Ada ' })).toEqual({ ok: true, value: good });
  });

  it('needs non-whitespace first and last names (proper_input_name)', () => {
    expect(validateRegistration({ ...good, firstName: '   ' })).toEqual({ ok: false, key: 'proper_input_name', field: 'firstName' });
    expect(validateRegistration({ ...good, lastName: '\t' })).toEqual({ ok: false, key: 'proper_input_name', field: 'lastName' });
    expect(validateName('x'.repeat(101), 'firstName')).toEqual({ ok: false, key: 'proper_input_name', field: 'firstName' });
  });

  it('needs a standard email (proper_email)', () => {
    for (const email of ['ada', 'ada@', 'ada@example', 'a da@example.com', 'ada@example.c', `${'a'.repeat(250)}@example.com`]) {
      expect(validateRegistration({ ...good, email })).toEqual({ ok: false, key: 'proper_email', field: 'email' });
    }
    expect(validateRegistration({ ...good, email: '"quoted name"@example.com' }).ok).toBe(true);
    expect(validateRegistration({ ...good, email: 'a.b@[10.0.0.1]' }).ok).toBe(true);
  });

  it('alphanumeric mode: 6 to 30 of letters, digits, @, * and # (password_alphaNumeric_check)', () => {
    expect(validatePassword('abc@*#').ok).toBe(true);
    expect(validatePassword('a'.repeat(30)).ok).toBe(true);
    for (const password of ['abc12', 'a'.repeat(31), 'abc 123', 'abc-123', 'pässwörd', 123456]) {
      expect(validatePassword(password)).toEqual({ ok: false, key: 'password_alphaNumeric_check', field: 'password' });
    }
  });

  it("'any' mode: at least 1 character (password_blank_messege)", () => {
    expect(validatePassword('x', 'any').ok).toBe(true);
    expect(validatePassword('', 'any')).toEqual({ ok: false, key: 'password_blank_messege', field: 'password' });
    expect(validatePassword('x'.repeat(129), 'any').ok).toBe(false);
  });

  it("'complex' mode: 8 to 30 with digit, lowercase, uppercase, special, no whitespace (password_complexity_check)", () => {
    expect(validatePassword('Abcdef1!', 'complex').ok).toBe(true);
    for (const password of ['Abcde1!', 'abcdefg1!', 'ABCDEFG1!', 'Abcdefgh!', 'Abcdefgh1', 'Abcd efg1!', `Ab1!${'x'.repeat(27)}`]) {
      expect(validatePassword(password, 'complex')).toEqual({ ok: false, key: 'password_complexity_check', field: 'password' });
    }
  });

  it('needs a phone of at least 6 digits with no plus, space or dash (mobile_no_blank_error)', () => {
    expect(validateMobile('555010')).toEqual({ ok: true, value: '555010' });
    for (const mobile of ['55501', '+4455501000', '555 0100', '555-0100', '555o100', '1'.repeat(16), 5550100]) {
      expect(validateRegistration({ ...good, mobile })).toEqual({ ok: false, key: 'mobile_no_blank_error', field: 'mobile' });
    }
  });

  it('checks an entered referral id has the form of one (referer_not_found); empty means none', () => {
    expect(validateRegistration({ ...good, referralId: 'Ada1234' })).toEqual({ ok: true, value: { ...good, referralId: 'ada1234' } });
    expect(validateRegistration({ ...good, referralId: '' })).toEqual({ ok: true, value: good });
    for (const referralId of ['ada12', '1234', 'ada 1234', { id: 'x' }]) {
      expect(validateRegistration({ ...good, referralId })).toEqual({ ok: false, key: 'referer_not_found', field: 'referralId' });
    }
    expect(isReferralIdFormat('zoë1234')).toBe(true);
  });

  it('reports the first problem in form order', () => {
    expect(validateRegistration({})).toEqual({ ok: false, key: 'proper_input_name', field: 'firstName' });
    expect(validateRegistration({ ...good, email: 'x', password: 'y' })).toEqual({ ok: false, key: 'proper_email', field: 'email' });
  });
});
