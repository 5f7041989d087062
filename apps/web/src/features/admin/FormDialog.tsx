import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId, useState, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';

type Props = {
  title: string;
  busy: boolean;
  onSubmit: () => void;
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
export function FormDialog({ title, busy, onSubmit, onClose, maxWidth = 'xs', submitLabel, confirmation, children }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const [confirming, setConfirming] = useState(false);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (confirmation !== undefined && !confirming) setConfirming(true);
    else onSubmit();
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth={maxWidth}>
      <form onSubmit={submit}>
        <DialogTitle id={titleId}>{confirming ? t('confirm_changes') : title}</DialogTitle>
        {/* The fields stay mounted while confirming, so Back finds them as they were typed. */}
        <DialogContent sx={confirming ? { display: 'none' } : undefined}>{children}</DialogContent>
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
          <Button type="submit" variant="contained" disabled={busy}>
            {confirming ? t('confirm') : (submitLabel ?? t('save'))}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
