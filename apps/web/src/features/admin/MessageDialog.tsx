import type { OutboxMessage } from '@rideway/contract';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDates } from '../../hooks/use-dates';
import { messageText, stateLabel } from './outbox-view';

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="caption" color="text.secondary">{label}</Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, mb: 1.5, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{children}</Typography>
    </>
  );
}

/**
 * One message whole: on a phone the table keeps only the recipient, the state and the action,
 * and at any width a long text or provider error is cut; here nothing is. A failed one is sent
 * again from here too.
 */
export function MessageDialog({ message, busy, onRetry, onClose }: { message: OutboxMessage; busy: boolean; onRetry: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const dates = useDates();
  const titleId = useId();
  const failed = message.state === 'failed';
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{message.recipient}</DialogTitle>
      <DialogContent>
        <dl style={{ margin: 0 }}>
          <Line label={t('message_channel')}>{t(`message_channel_${message.channel}`)}</Line>
          <Line label={t('date')}>{dates.dateTime(message.createdAt)}</Line>
          <Line label={t('message_text')}>{messageText(message)}</Line>
          <Line label={t('message_state')}>
            <Typography component="span" variant="body2" color={failed ? 'error' : 'inherit'} sx={{ fontWeight: failed ? 'bold' : undefined }}>
              {stateLabel(message, t)}
            </Typography>
            {message.deliveredAt !== null && ` · ${dates.dateTime(message.deliveredAt)}`}
            {message.failedAt !== null && ` · ${dates.dateTime(message.failedAt)}`}
          </Line>
          {message.lastError && (
            <Line label={t('message_last_error')}>
              <Typography component="span" variant="body2" color={failed ? 'error' : 'text.secondary'}>{message.lastError}</Typography>
            </Line>
          )}
        </dl>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
        {failed && (
          <Button variant="contained" loading={busy} onClick={onRetry}>
            {t('send_again')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
