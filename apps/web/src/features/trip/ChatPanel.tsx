import type { User } from '@rideway/contract';
import SendIcon from '@mui/icons-material/Send';
import { Box, IconButton, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useChat, useSendChat } from '../../api/bookings';
import { errorKey } from '../../api/client';
import { useDates } from '../../hooks/use-dates';

/** Chat between the booking's rider and its driver; new messages arrive over the WebSocket. */
export function ChatPanel({ bookingId, me, open }: { bookingId: string; me: User; open: boolean }) {
  const { t } = useTranslation();
  const dates = useDates();
  const chat = useChat(bookingId, true);
  const send = useSendChat(bookingId);
  const [text, setText] = useState('');
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    send.mutate(text.trim(), { onSuccess: () => { setText(''); } });
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="chat-title" sx={{ p: 2 }}>
      <Typography id="chat-title" variant="h6" component="h2" gutterBottom>
        {t('chat')}
      </Typography>
      <Stack spacing={1} role="log" aria-live="polite" sx={{ maxHeight: 280, overflowY: 'auto', mb: 2 }}>
        {chat.data?.length === 0 && <Typography color="text.secondary">{t('chat_not_found')}</Typography>}
        {chat.data?.map((message) => {
          const mine = message.from === me.id;
          return (
            <Box key={message.smsId} sx={{ alignSelf: mine ? 'flex-end' : 'flex-start', maxWidth: '80%', bgcolor: mine ? 'primary.main' : 'grey.200', color: mine ? 'primary.contrastText' : 'text.primary', px: 1.5, py: 0.75, borderRadius: 2 }}>
              <Typography variant="body2">{message.message}</Typography>
              <Typography variant="caption" sx={{ opacity: 0.75 }}>
                {dates.time(message.createdAt)}
              </Typography>
            </Box>
          );
        })}
      </Stack>
      {open && (
        <Stack component="form" direction="row" spacing={1} onSubmit={submit}>
          <TextField
            fullWidth
            size="small"
            label={t('type_message')}
            value={text}
            onChange={(event) => { setText(event.target.value); }}
            error={send.isError}
            helperText={send.isError ? t(errorKey(send.error)) : undefined}
            slotProps={{ htmlInput: { maxLength: 1000 } }}
          />
          <IconButton type="submit" color="primary" aria-label={t('send')} disabled={send.isPending || !text.trim()}>
            <SendIcon />
          </IconButton>
        </Stack>
      )}
    </Paper>
  );
}
