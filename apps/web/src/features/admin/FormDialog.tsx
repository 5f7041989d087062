import { Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId, useState, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/FormError';
import type { FormErrors } from '../../hooks/use-form-errors';

type Props = {
  title: string;
  busy: boolean;
  /**
   * Sends the form. When it answers a promise and `errors` is given, a refusal lands on its field
   * (or above the buttons) and the dialog returns from the confirmation to the fields (issue 17).
   */
  onSubmit: () => unknown;
  errors?: FormErrors;
  onClose: () => void;
  maxWidth?: 'xs' | 'sm';
  submitLabel?: string;
  /**
   * What the change does, shown as a second step before anything is sent (issue 17: an edit is
   * confirmed, never written on the way). Without it, Save sends at once (an add).
   */
  confirmation?: ReactNode;
  children: ReactNode;
};

/**
 * An admin form in a dialog: its title, its fields, then Cancel and Save (or what the form does).
 * With a confirmation, Save shows it first and Confirm sends; Back returns to the fields as typed.
 */
export function FormDialog({ title, busy, onSubmit, onClose, maxWidth = 'xs', submitLabel, confirmation, errors, children }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (confirmation !== undefined && !confirming) {
      setConfirming(true);
      return;
    }
    const sent = onSubmit();
    if (sent instanceof Promise && errors) {
      sent.catch((error: unknown) => {
        errors.show(error);
        setConfirming(false);
      });
    }
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth={maxWidth}>
      <form onSubmit={submit}>
        <DialogTitle id={titleId}>{confirming ? t('confirm_changes') : title}</DialogTitle>
        {/* The fields stay mounted while confirming, so Back finds them as they were typed. */}
        <DialogContent sx={confirming ? { display: 'none' } : undefined}>
          {children}
          {errors?.formError && (
            <Box sx={{ mt: 2 }}>
              <FormError message={errors.formError} />
            </Box>
          )}
        </DialogContent>
        {confirming && (
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>{t('confirm_changes_hint')}</DialogContentText>
            {confirmation}
          </DialogContent>
        )}
        <DialogActions>
          {confirming ? (
            <Button onClick={() => { setConfirming(false); }}>{t('back')}</Button>
          ) : (
            <Button onClick={onClose}>{t('cancel')}</Button>
          )}
          <Button type="submit" variant="contained" loading={busy}>
            {confirming ? t('confirm') : (submitLabel ?? t('save'))}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
