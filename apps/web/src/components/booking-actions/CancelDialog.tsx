import { Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Radio, RadioGroup, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCancelReasons } from '../../api/catalogue';

/** Section 4: a NEW or ACCEPTED booking is cancelled with a reason from the admin's list. */
export function CancelDialog({ onCancel, onClose, busy }: { onCancel: (reason: string) => void; onClose: () => void; busy: boolean }) {
  const { t } = useTranslation();
  const reasons = useCancelReasons(true);
  const [reason, setReason] = useState('');
  return (
    <Dialog open onClose={onClose} aria-labelledby="cancel-title" fullWidth maxWidth="xs">
      <DialogTitle id="cancel-title">{t('cancel_reason_title')}</DialogTitle>
      <DialogContent>
        {reasons.data?.length === 0 && <Typography>{t('no_cancel_reasons')}</Typography>}
        <RadioGroup aria-labelledby="cancel-title" value={reason} onChange={(event) => { setReason(event.target.value); }}>
          {reasons.data?.map((entry) => <FormControlLabel key={entry.value} value={entry.label} control={<Radio />} label={entry.label} />)}
        </RadioGroup>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
        <Button variant="contained" color="error" disabled={!reason || busy} onClick={() => { onCancel(reason); }}>
          {t('cancel_booking')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
