import { Button, TextField } from '@mui/material';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { placeError, useFormErrors } from './use-form-errors';

describe('placing an error answer on a form (issue 17)', () => {
  const fields = ['email', 'password', 'pickup'] as const;

  it('puts it on the field the server names', () => {
    expect(placeError(new ApiError(400, 'proper_email', 'x', 'email'), fields)).toEqual({ key: 'proper_email', field: 'email' });
  });

  it('puts a nested path on its first segment', () => {
    expect(placeError(new ApiError(400, 'select_proper', 'x', 'pickup.lat'), fields)).toEqual({ key: 'select_proper', field: 'pickup' });
  });

  it("uses the key's own field when the server names none", () => {
    expect(placeError(new ApiError(400, 'password_alphaNumeric_check', 'x'), fields)).toEqual({ key: 'password_alphaNumeric_check', field: 'password' });
  });

  it("gives the form a key of no one field, and one whose field the form does not show", () => {
    expect(placeError(new ApiError(409, 'user_exists', 'x'), fields)).toEqual({ key: 'user_exists', field: null });
    expect(placeError(new ApiError(400, 'select_proper', 'x', 'carType'), fields)).toEqual({ key: 'select_proper', field: null });
    expect(placeError(new ApiError(400, 'mobile_no_blank_error', 'x'), fields)).toEqual({ key: 'mobile_no_blank_error', field: null });
  });

  it('gives the form a call that never answered', () => {
    expect(placeError(new TypeError('Failed to fetch'), fields)).toEqual({ key: 'fetch_call_error', field: null });
  });
});

const FIELDS = ['email', 'password'] as const;

/** A form as the app's are built: each field spreads its error props; the form's error below. */
function Form({ failure }: { failure: unknown }) {
  const errors = useFormErrors(FIELDS);
  const [email, setEmail] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        errors.show(failure);
      }}
    >
      <TextField label="Email" value={email} onChange={(event) => { setEmail(event.target.value); errors.clear('email'); }} {...errors.field('email')} />
      <TextField label="Password" {...errors.field('password')} />
      {errors.formError && <p data-testid="form-error">{errors.formError}</p>}
      <Button type="submit">Send</Button>
    </form>
  );
}

describe('useFormErrors', () => {
  it('shows the key on its field with aria-invalid and the text tied to the input, focuses it, and clears it on typing', async () => {
    const user = userEvent.setup();
    render(<Form failure={new ApiError(400, 'proper_email', 'x', 'email')} />);
    const email = screen.getByLabelText('Email');
    expect(email.getAttribute('aria-invalid')).toBe('false');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const text = await screen.findByText('proper_email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe(text.id);
    expect(document.activeElement).toBe(email);
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByTestId('form-error')).toBeNull();
    await user.type(email, 'a');
    expect(email.getAttribute('aria-invalid')).toBe('false');
    expect(screen.queryByText('proper_email')).toBeNull();
  });

  it("shows a key of no one field as the form's error, leaving the fields valid", async () => {
    const user = userEvent.setup();
    render(<Form failure={new ApiError(401, 'login_error', 'x')} />);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByTestId('form-error')).textContent).toBe('login_error');
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('false');
  });
});
