import { Alert, Snackbar } from '@mui/material';
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTICE_AUTO_HIDE_MS } from '../config/ui-constants';

/** success: a change went through ("Profile updated."); error: an action outside a form failed. */
export type NoticeSeverity = 'success' | 'info' | 'error';
type Notify = (message: string, severity?: NoticeSeverity) => void;
type Notice = { id: number; message: string; severity: NoticeSeverity };

const NoticeContext = createContext<Notify | null>(null);

/**
 * Issue 17: a short notice at the foot of the page (MUI's Snackbar) instead of a dialog for what
 * went well. It blocks nothing, takes no focus and is read out politely (role status); a success
 * goes away by itself (the timer waits while the pointer is on it or the window is in the
 * background), an error stays until closed. A newer notice replaces the one shown.
 */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [open, setOpen] = useState(false);
  const notify = useCallback<Notify>((message, severity = 'success') => {
    setNotice((current) => ({ id: (current?.id ?? 0) + 1, message, severity }));
    setOpen(true);
  }, []);
  const close = (_event: unknown, reason?: string) => {
    // A click elsewhere on the page is the user getting on with it, not a request to hide the notice.
    if (reason !== 'clickaway') setOpen(false);
  };
  return (
    <NoticeContext.Provider value={notify}>
      {children}
      <Snackbar
        key={notice?.id}
        open={open && notice !== null}
        onClose={close}
        autoHideDuration={notice?.severity === 'error' ? null : NOTICE_AUTO_HIDE_MS}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Alert
          role={notice?.severity === 'error' ? 'alert' : 'status'}
          data-testid="notice"
          severity={notice?.severity ?? 'success'}
          variant="filled"
          onClose={() => { setOpen(false); }}
          slotProps={{ closeButton: { title: t('close'), 'aria-label': t('close') } }}
          sx={{ width: '100%', alignItems: 'center' }}
        >
          {notice?.message}
        </Alert>
      </Snackbar>
    </NoticeContext.Provider>
  );
}

/** Shows a notice (see NoticeProvider); the app's Providers hold the one provider. */
export function useNotice(): Notify {
  const notify = useContext(NoticeContext);
  if (!notify) throw new Error('useNotice needs a NoticeProvider above it');
  return notify;
}
