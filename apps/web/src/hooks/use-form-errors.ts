import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorKey } from '../api/client';

/**
 * The field a key concerns when the server's answer does not name one. The server names the field
 * for every schema issue and for most refusals (`{"error": {"code", "field"}}`); this table covers
 * the refusals it makes without one, and keys the web checks itself. A key that belongs to no one
 * field (user_exists: the email or the mobile; login_error) is the form's.
 */
const KEY_FIELDS: Readonly<Record<string, string>> = {
  proper_email: 'email',
  password_alphaNumeric_check: 'password',
  password_blank_messege: 'password',
  password_complexity_check: 'password',
  mobile_no_blank_error: 'mobile',
  referer_not_found: 'referralId',
  user_does_not_exists: 'mobile',
  otp_validate_error: 'otp',
  proper_bonus: 'bonus',
  proper_driver_radius: 'driverRadius',
  proper_timezone: 'timezone',
  wrong_code: 'license',
  insufficient_balance: 'amount',
  topup_amount_exceeded: 'amount',
  notification_blank: 'title',
};

/** Where an error is shown: on one of the form's fields, or on the form as a whole (field null). */
export type PlacedError = { key: string; field: string | null };

/**
 * Places a failed call's error on the form: on the field the server named (a nested path counts
 * for its first segment, e.g. `pickup.lat` for `pickup`), else on the field the key belongs to,
 * else on the form. Only the form's own fields are candidates: a field the form does not show
 * cannot hold the message.
 */
export function placeError(error: unknown, fields: readonly string[]): PlacedError {
  const key = errorKey(error);
  const named = error instanceof ApiError ? error.field : undefined;
  const candidates = [named, named?.split('.')[0], KEY_FIELDS[key]];
  const field = candidates.find((candidate): candidate is string => candidate !== undefined && fields.includes(candidate)) ?? null;
  return { key, field };
}

/** What a TextField takes to show its error: MUI sets aria-invalid and ties the helper text to the input. */
export type FieldErrorProps = { error: boolean; helperText?: string; id: string };

/**
 * A form's errors (issue 17): the server's answer or a local check lands on its field, shown
 * translated under it with aria-invalid set, and the first field at fault gets the focus; an error
 * of no one field is the form's (`formError`, shown with FormError). Typing in a field clears its
 * error (`clear(field)`).
 */
export function useFormErrors<Field extends string>(fields: readonly Field[]) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formKey, setFormKey] = useState<string | null>(null);
  // Each field's input has an id of this form, so the field at fault can be focused.
  const prefix = useId();
  const idOf = (name: string) => `${prefix}-${name}`;
  const [focusOn, setFocusOn] = useState<{ field: Field } | null>(null);
  useEffect(() => {
    if (focusOn) document.getElementById(`${prefix}-${focusOn.field}`)?.focus();
  }, [focusOn, prefix]);

  /** Shows a key on a field (a local check), or on the form when no field is given. */
  const set = useCallback((key: string, field?: Field | null) => {
    if (field === undefined || field === null) {
      setFormKey(key);
      return;
    }
    setErrors((current) => ({ ...current, [field]: key }));
    setFocusOn({ field });
  }, []);

  /** Shows a failed call's error where it belongs (see placeError). */
  const show = useCallback(
    (error: unknown) => {
      const placed = placeError(error, fields);
      set(placed.key, placed.field as Field | null);
    },
    [fields, set],
  );

  /** Clears one field's error (and the form's, which a change may have answered), or all of them; any name may be passed. */
  const clear = useCallback((field?: string) => {
    setFormKey(null);
    setErrors((current) => {
      if (field === undefined) return {};
      if (!(field in current)) return current;
      const { [field]: _cleared, ...rest } = current as Record<string, string>;
      return rest as Partial<Record<Field, string>>;
    });
  }, []);

  /** The props that show a field's error on its TextField. */
  const field = (name: Field): FieldErrorProps => {
    const key = errors[name];
    return {
      error: key !== undefined,
      ...(key === undefined ? {} : { helperText: t(key) }),
      id: idOf(name),
    };
  };

  const hasErrors = formKey !== null || Object.keys(errors).length > 0;
  return { show, set, clear, field, hasErrors, formError: formKey === null ? null : t(formKey) };
}

/** What a form's frame (FormDialog) needs of its errors: to place a refusal, and the form's own message. */
export type FormErrors = Pick<ReturnType<typeof useFormErrors>, 'show' | 'formError'>;
