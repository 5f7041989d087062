import { fail, ok, type Result } from '../result';
import { fieldOf, numberOf } from './fields';

/** The largest bonus and radius a form accepts: far above any real value, well inside safe money. */
export const MAX_BONUS = 1_000_000;
export const MAX_DRIVER_RADIUS = 20_000;

/**
 * Section 5: a settings form field that accepts only numbers of 0 or more keeps its text and is
 * emptied otherwise.
 */
export function keepNonNegativeNumberInput(text: string): string {
  const value = numberOf(text);
  return value !== undefined && value >= 0 ? text : '';
}

/** Section 5: bonus must not be empty and must be a number of 0 or more (proper_bonus). */
export function validateBonus(value: unknown): Result<number> {
  const bonus = numberOf(value);
  if (bonus === undefined || bonus < 0 || bonus > MAX_BONUS) return fail('proper_bonus', 'bonus');
  return ok(bonus);
}

/** Section 5: driver radius accepts only numbers of 0 or more (proper_driver_radius). */
export function validateDriverRadius(value: unknown): Result<number> {
  const radius = numberOf(value);
  if (radius === undefined || radius < 0 || radius > MAX_DRIVER_RADIUS) {
    return fail('proper_driver_radius', 'driverRadius');
  }
  return ok(radius);
}

/**
 * Section 5 settings save: refused in demo mode (demo_mode); bonus and driverRadius checked when
 * present. Other settings are typed by the contract's schema.
 */
export function validateSettingsSave(
  input: unknown,
  current: { AllowCriticalEditsAdmin: boolean },
): Result<{ bonus?: number; driverRadius?: number }> {
  if (!current.AllowCriticalEditsAdmin) return fail('demo_mode');
  const out: { bonus?: number; driverRadius?: number } = {};
  const bonusValue = fieldOf(input, 'bonus');
  if (bonusValue !== undefined) {
    const bonus = validateBonus(bonusValue);
    if (!bonus.ok) return bonus;
    out.bonus = bonus.value;
  }
  const radiusValue = fieldOf(input, 'driverRadius');
  if (radiusValue !== undefined) {
    const radius = validateDriverRadius(radiusValue);
    if (!radius.ok) return radius;
    out.driverRadius = radius.value;
  }
  return ok(out);
}
