import { describe, expect, it } from 'vitest';
import { keepNonNegativeNumberInput, validateBonus, validateDriverRadius, validateSettingsSave } from './settings';

describe('section 5: settings save', () => {
  const editable = { AllowCriticalEditsAdmin: true };

  it('is blocked in demo mode (demo_mode)', () => {
    expect(validateSettingsSave({ bonus: 5 }, { AllowCriticalEditsAdmin: false })).toEqual({ ok: false, key: 'demo_mode' });
  });

  it('needs a bonus that is a number of 0 or more (proper_bonus)', () => {
    expect(validateSettingsSave({ bonus: '10' }, editable)).toEqual({ ok: true, value: { bonus: 10 } });
    expect(validateBonus(0)).toEqual({ ok: true, value: 0 });
    for (const bonus of ['', '  ', -1, 'ten', null, Number.NaN, Infinity, 1e9]) {
      expect(validateSettingsSave({ bonus }, editable)).toEqual({ ok: false, key: 'proper_bonus', field: 'bonus' });
    }
  });

  it('needs a driver radius that is a number of 0 or more (proper_driver_radius)', () => {
    expect(validateSettingsSave({ driverRadius: 7.5 }, editable)).toEqual({ ok: true, value: { driverRadius: 7.5 } });
    for (const radius of ['', -0.1, 'far', {}]) {
      expect(validateDriverRadius(radius)).toEqual({ ok: false, key: 'proper_driver_radius', field: 'driverRadius' });
      expect(validateSettingsSave({ driverRadius: radius }, editable).ok).toBe(false);
    }
  });

  it('empties a form input that is not a number of 0 or more', () => {
    expect(keepNonNegativeNumberInput('12.5')).toBe('12.5');
    expect(keepNonNegativeNumberInput('0')).toBe('0');
    expect(keepNonNegativeNumberInput('-3')).toBe('');
    expect(keepNonNegativeNumberInput('abc')).toBe('');
  });
});
