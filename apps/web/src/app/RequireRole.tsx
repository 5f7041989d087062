import type { User } from '@rideway/contract';
import { Box, CircularProgress } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { useMe } from '../api/session';
import { loginReturningTo } from '../utils/return-path';

/**
 * Section 2: a spinner until the auth state is known; anyone not permitted goes to /login, which
 * returns to the page asked for after signing in (issue 17).
 */
export function RequireRole({ allowed, children }: { allowed: readonly User['usertype'][]; children: ReactNode }) {
  const { t } = useTranslation();
  const { data: me, isPending } = useMe();
  const { pathname, search, hash } = useLocation();
  if (isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (!me || !allowed.includes(me.usertype)) return <Navigate to={loginReturningTo(`${pathname}${search}${hash}`)} replace />;
  return children;
}
