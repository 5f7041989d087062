import type { User } from '@rideway/contract';
import { Box, CircularProgress } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { useMe } from '../api/session';

/** Section 2: a spinner until the auth state is known; anyone not permitted goes to /login. */
export function RequireRole({ allowed, children }: { allowed: readonly User['usertype'][]; children: ReactNode }) {
  const { t } = useTranslation();
  const { data: me, isPending } = useMe();
  if (isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (!me || !allowed.includes(me.usertype)) return <Navigate to="/login" replace />;
  return children;
}
