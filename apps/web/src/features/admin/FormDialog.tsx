import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useId, type ReactNode, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** An admin form in a dialog: its title, its fields, then Cancel and Save (or what the form does). */
export function FormDialog({ title, busy, onSubmit, onClose, maxWidth = 'xs', submitLabel, children }: { title: string; busy: boolean; onSubmit: () => void; onClose: () => void; maxWidth?: 'xs' | 'sm'; submitLabel?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const titleId = useId();
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth={maxWidth}>
      <form onSubmit={submit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {submitLabel ?? t('save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
