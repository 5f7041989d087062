import { Alert } from '@mui/material';

/**
 * An error of the form as a whole (issue 17: one the server ties to no field, such as
 * user_exists or login_error), shown in the form beside what the user typed, not in a dialog.
 */
export function FormError({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <Alert severity="error" role="alert" data-testid="form-error">
      {message}
    </Alert>
  );
}
