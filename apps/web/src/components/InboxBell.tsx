import NotificationsIcon from '@mui/icons-material/NotificationsOutlined';
import type { InboxNotification, User } from '@rideway/contract';
import { Badge, Box, Button, Divider, IconButton, List, ListItemButton, ListItemText, Popover, Stack, Typography, useTheme } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { INBOX, useInbox, useMarkAllRead, useMarkRead } from '../api/inbox';
import { useDates } from '../hooks/use-dates';
import { useWebPushSync } from '../hooks/use-web-push-sync';
import { pushTargetPath } from '../push/push-target';

/** The most the badge counts; more shows as 99+. */
const BADGE_MAX = 99;

function InboxRow({ notification, onOpen }: { notification: InboxNotification; onOpen: () => void }) {
  const { t } = useTranslation();
  const dates = useDates();
  const unread = notification.readAt === null;
  return (
    <ListItemButton onClick={onOpen} alignItems="flex-start" data-unread={unread} sx={{ gap: 1.5 }}>
      <Box aria-hidden sx={{ mt: 1, width: 8, height: 8, flexShrink: 0, borderRadius: '50%', bgcolor: unread ? 'primary.main' : 'transparent' }} />
      <ListItemText
        primary={
          <>
            {unread && <Box component="span" sx={visuallyHidden}>{`${t('inbox_unread')}: `}</Box>}
            {notification.title}
          </>
        }
        secondary={
          <>
            <Box component="span" sx={{ display: 'block', color: 'text.primary', overflowWrap: 'anywhere' }}>{notification.msg}</Box>
            <Box component="span" sx={{ display: 'block', mt: 0.25 }}>{dates.dateTime(notification.createdAt)}</Box>
          </>
        }
        slotProps={{ primary: { sx: { fontWeight: unread ? 700 : 400 } } }}
      />
    </ListItemButton>
  );
}

const visuallyHidden = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/**
 * Issue 19: the top bar's bell, the signed-in user's inbox: the unread count on the bell, the
 * newest messages in a panel; opening one marks it read and goes to its screen, the same one its
 * notification opens. Also keeps this browser's push subscription for the user when allowed.
 */
export function InboxBell({ me }: { me: User | null | undefined }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  useWebPushSync(me?.id);
  const inbox = useInbox(Boolean(me));
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const unread = inbox.data?.unread ?? 0;
  const notifications = inbox.data?.notifications ?? [];
  // The panel opens from the bell's end of the bar, on the right in LTR and on the left in RTL.
  const side = theme.direction === 'rtl' ? 'left' : 'right';
  const open = (notification: InboxNotification) => {
    if (notification.readAt === null) markRead.mutate(notification.id);
    setAnchor(null);
    void navigate(pushTargetPath(notification));
  };
  if (!me) return null;
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('inbox_open', { count: unread })}
        aria-haspopup="dialog"
        aria-expanded={anchor !== null}
        data-testid="inbox-bell"
        onClick={(event) => {
          setAnchor(event.currentTarget);
          void queryClient.invalidateQueries({ queryKey: INBOX });
        }}
        sx={{ marginInlineStart: 'auto' }}
      >
        <Badge badgeContent={unread} max={BADGE_MAX} color="error" data-testid="inbox-unread">
          <NotificationsIcon />
        </Badge>
      </IconButton>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => { setAnchor(null); }}
        anchorOrigin={{ vertical: 'bottom', horizontal: side }}
        transformOrigin={{ vertical: 'top', horizontal: side }}
        slotProps={{ paper: { role: 'dialog', 'aria-labelledby': 'inbox-title', sx: { width: 'min(380px, calc(100vw - 16px))', maxHeight: 'min(560px, 75vh)', display: 'flex', flexDirection: 'column' } } }}
      >
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 1, px: 2, py: 1 }}>
          <Typography id="inbox-title" variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
            {t('inbox_title')}
          </Typography>
          <Button size="small" disabled={unread === 0 || markAll.isPending} onClick={() => { markAll.mutate(); }}>
            {t('inbox_mark_all_read')}
          </Button>
        </Stack>
        <Divider />
        {notifications.length === 0 ? (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {inbox.isPending ? '…' : t('inbox_empty')}
          </Typography>
        ) : (
          <List dense disablePadding sx={{ overflowY: 'auto' }} aria-labelledby="inbox-title">
            {notifications.map((notification) => (
              <InboxRow key={notification.id} notification={notification} onOpen={() => { open(notification); }} />
            ))}
          </List>
        )}
      </Popover>
    </>
  );
}
