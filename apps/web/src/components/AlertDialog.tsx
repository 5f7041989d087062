import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** A second button beside Close, e.g. 'Sign in' after must_login. */
export type AlertAction = { label: string; onClick: () => void };

/** Section 8's 'Alert' dialog: a message and Close. */
export function AlertDialog({ message, onClose, action }: { message: string | null; onClose: () => void; action?: AlertAction }) {
  const { t } = useTranslation();
  return (
    <Dialog open={message !== null} onClose={onClose} aria-labelledby="alert-title" aria-describedby="alert-message">
      <DialogTitle id="alert-title">{t('alert')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="alert-message">{message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        {action && (
          <Button variant="contained" onClick={action.onClick}>
            {action.label}
          </Button>
        )}
        <Button onClick={onClose} autoFocus>
          {t('close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
