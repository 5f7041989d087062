import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../api/client';
import { useNotice } from '../../components/NoticeProvider';

export type ReviewDecision = 'approve' | 'reject';

/** The text keys of one kind of review (documents, vehicles). */
export type ReviewTexts = { approveTitle: string; rejectTitle: string; rejectHint: string; approvedDone: string; rejectedDone: string };

/**
 * Asks before a review decision on a driver's document or vehicle; a rejection needs the reason
 * the driver reads. `decide` sends it with the reason trimmed.
 */
export function ReviewDecisionDialog({ decision, subject, texts, pending, decide, onClose }: {
  decision: ReviewDecision;
  subject: string;
  texts: ReviewTexts;
  pending: boolean;
  decide: (reason: string, callbacks: { onSuccess: () => void; onError: (failure: Error) => void }) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const notify = useNotice();
  const titleId = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    if (decision === 'reject' && reason.trim() === '') {
      setError(t('no_details_error'));
      return;
    }
    decide(reason.trim(), {
      onSuccess: () => {
        notify(t(decision === 'approve' ? texts.approvedDone : texts.rejectedDone), 'success');
        onClose();
      },
      onError: (failure) => { setError(t(errorKey(failure))); },
    });
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t(decision === 'approve' ? texts.approveTitle : texts.rejectTitle)}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{subject}</DialogContentText>
        {decision === 'reject' && (
          <TextField autoFocus fullWidth multiline minRows={2} label={t('document_reason')} helperText={t(texts.rejectHint)} value={reason} onChange={(event) => { setReason(event.target.value); }} slotProps={{ htmlInput: { maxLength: 500 } }} />
        )}
        {error && <Alert severity="error" sx={{ mt: 2 }}>{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" color={decision === 'approve' ? 'primary' : 'error'} loading={pending} onClick={confirm}>
          {t(decision === 'approve' ? 'document_approve' : 'document_reject')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
