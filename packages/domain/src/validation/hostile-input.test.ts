import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isErrorKey } from '../error-keys';
import type { Result } from '../result';
import { validateEmailLogin, validateLoginOtp } from './auth';
import { validateBookingForm } from './booking-form';
import { validateNotificationDraft } from './notification';
import { validateProfileUpdate } from './profile';
import { validateMobile, validateName, validatePassword, validateRegistration } from './registration';
import { validateSettingsSave } from './settings';
import { validateAddToWallet } from './wallet';

const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'x'.repeat(100_000),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${7*7}',
  '__proto__',
  '\u202e\u200b',
  '😀'.repeat(50),
  `${'a'.repeat(60)}@${'b.'.repeat(2000)}`,
];
const hostileValues: unknown[] = [
  ...hostileStrings,
  undefined,
  null,
  0,
  -1,
  Number.NaN,
  Infinity,
  1e308,
  true,
  [],
  [1, 2],
  {},
  Object.create(null),
  { toString: 'not a function' },
  () => 1,
  Symbol('s'),
  10n,
];

const validators: Record<string, (input: unknown) => Result<unknown>> = {
  validateEmailLogin,
  validateLoginOtp,
  validateRegistration,
  registrationComplexPassword: (input) => validateRegistration(input, 'complex'),
  validateName: (input) => validateName(input, 'firstName'),
  validatePassword,
  validateMobile,
  validateProfileUpdate: (input) => validateProfileUpdate(input, { email: 'a@b.co', mobile: '5550100', isEmailLoginUser: false }),
  validateSettingsSave: (input) => validateSettingsSave(input, { AllowCriticalEditsAdmin: true }),
  validateAddToWallet,
  validateNotificationDraft,
  validateBookingForm: (input) => validateBookingForm(input, { form: 'admin', user: { usertype: 'admin' }, appCategory: 'delivery', now: 0 }),
};

const objectWithHostileFields = fc.dictionary(
  fc.constantFrom('email', 'password', 'firstName', 'lastName', 'mobile', 'otp', 'bonus', 'driverRadius', 'uid', 'amount', 'usertype', 'devicetype', 'title', 'body', 'pickup', 'drop', 'carType', 'customer', 'bookLater', 'tripdate', 'referralId', 'deliveryPerson', 'deliveryPersonPhone'),
  fc.oneof(fc.constantFrom(...hostileValues), fc.anything(), fc.string({ maxLength: 400 })),
);

describe('every section 5 validator answers bad input with a spec key and never throws', () => {
  for (const [name, validate] of Object.entries(validators)) {
    it(`${name}: missing, wrong types, empty, too long and hostile values`, () => {
      for (const value of hostileValues) {
        const result = validate(value);
        if (!result.ok) expect(isErrorKey(result.key)).toBe(true);
      }
      fc.assert(
        fc.property(fc.oneof(fc.anything(), objectWithHostileFields), (input) => {
          const result = validate(input);
          if (!result.ok) expect(isErrorKey(result.key)).toBe(true);
        }),
        { numRuns: 300 },
      );
    });
  }
});
