import type { User } from '@rideway/contract';
import { Alert, Button, Card, CardContent, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDeleteAccount } from '../../api/account';
import { errorKey } from '../../api/client';
import { FormError } from '../../components/FormError';
import { useNotice } from '../../components/NoticeProvider';
import { useMoney } from '../../hooks/use-money';

/** What the person types to confirm: the same word in every language, so it is never mistaken. */
const CONFIRMATION = 'DELETE';

/**
 * Issue 20: the danger zone. Deleting asks for DELETE typed in a dialog; the server refuses it
 * during a trip or with money owed (its message shows in the dialog), and erases the personal
 * data while the trips and payments stay in the books (decisions.md, "Account privacy").
 */
export function DeleteAccountCard({ me }: { me: User }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const money = useMoney();
  const navigate = useNavigate();
  // The notice is the app's, so it stays on screen after this card has gone with the profile page.
  const remove = useDeleteAccount(() => {
    notify(t('account_deleted'));
    return navigate('/login');
  });
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const titleId = useId();
  const close = () => {
    setOpen(false);
    setTyped('');
    setFailure(null);
  };
  const confirm = () => {
    setFailure(null);
    remove.mutate(me.id, {
      onError: (error) => { setFailure(t(errorKey(error))); },
    });
  };
  return (
    <Card variant="outlined" component="section" aria-labelledby={titleId} sx={{ borderColor: 'error.main' }}>
      <CardContent>
        <Typography id={titleId} variant="h6" component="h2" color="error" gutterBottom>
          {t('delete_account')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('delete_account_help')}
        </Typography>
        <Button color="error" variant="outlined" onClick={() => { setOpen(true); }}>
          {t('delete_account')}
        </Button>
      </CardContent>
      <Dialog open={open} onClose={close} aria-labelledby={`${titleId}-dialog`} fullWidth maxWidth="xs">
        <DialogTitle id={`${titleId}-dialog`}>{t('delete_account')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('delete_account_help')}</DialogContentText>
          {me.walletBalance > 0 && <Alert severity="warning" sx={{ mb: 2 }}>{t('delete_account_wallet_warning', { amount: money(me.walletBalance) })}</Alert>}
          <DialogContentText sx={{ mb: 1 }}>{t('delete_account_confirm')}</DialogContentText>
          <TextField
            label={t('delete_account_confirm_label')}
            value={typed}
            onChange={(event) => { setTyped(event.target.value); }}
            autoComplete="off"
            fullWidth
            slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'characters' } }}
          />
          <FormError message={failure} />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>{t('cancel')}</Button>
          <Button color="error" variant="contained" disabled={typed.trim() !== CONFIRMATION} loading={remove.isPending} onClick={confirm}>
            {t('delete_account_forever')}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
