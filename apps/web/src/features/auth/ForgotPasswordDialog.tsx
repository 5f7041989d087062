import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { usePasswordReset } from '../../api/session';
import { FormError } from '../../components/FormError';
import { useNotice } from '../../components/NoticeProvider';
import { useFormErrors } from '../../hooks/use-form-errors';

const FIELDS = ['email'] as const;

/**
 * Section 2's forgot-password dialog: an email, cancel and reset. A refusal shows on the email;
 * the mail sent closes the dialog with a notice (issue 17).
 */
export function ForgotPasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const [email, setEmail] = useState('');
  const reset = usePasswordReset();
  const errors = useFormErrors(FIELDS);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    errors.clear();
    reset.mutate(email, {
      onSuccess: () => {
        onClose();
        notify(t('reset_pass_msg'));
      },
      onError: errors.show,
    });
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="forgot-title" fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="forgot-title">{t('forgot_password')}</DialogTitle>
        <DialogContent>
          <TextField autoFocus fullWidth margin="dense" type="email" label={t('email')} value={email} onChange={(event) => { setEmail(event.target.value); errors.clear('email'); }} required {...errors.field('email')} />
          <FormError message={errors.formError} />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" loading={reset.isPending}>
            {t('reset')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
