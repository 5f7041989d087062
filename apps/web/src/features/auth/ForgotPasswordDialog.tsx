import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../api/client';
import { usePasswordReset } from '../../api/session';

/** Section 2's forgot-password dialog: an email, cancel and reset. */
export function ForgotPasswordDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: (message: string) => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const reset = usePasswordReset();
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    reset.mutate(email, {
      onSuccess: () => { onDone(t('reset_pass_msg')); },
      onError: (error) => { onDone(t(errorKey(error))); },
    });
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="forgot-title" fullWidth maxWidth="xs">
      <form onSubmit={submit}>
        <DialogTitle id="forgot-title">{t('forgot_password')}</DialogTitle>
        <DialogContent>
          <TextField autoFocus fullWidth margin="dense" type="email" label={t('email')} value={email} onChange={(event) => { setEmail(event.target.value); }} required />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={reset.isPending}>
            {t('reset')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
