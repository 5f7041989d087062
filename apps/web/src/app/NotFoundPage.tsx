import { canOpenRoute, isProtectedRoute } from '@rideway/domain';
import { Box, Button, CircularProgress, Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Navigate, useLocation } from 'react-router';
import { useMe } from '../api/session';

/**
 * A path without a screen. Section 2's protected routes keep their guard even before their screen
 * exists: whoever may not open one goes to /login, as from any protected route.
 */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: me, isPending } = useMe();
  if (isProtectedRoute(pathname)) {
    if (isPending) {
      return (
        <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '60vh' }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      );
    }
    if (!canOpenRoute(pathname, me?.usertype ?? null)) return <Navigate to="/login" replace />;
  }
  return (
    <Container maxWidth="sm" sx={{ py: 8, textAlign: 'center' }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('page_not_found')}
      </Typography>
      <Button component={RouterLink} to="/" variant="contained">
        {t('nav_home')}
      </Button>
    </Container>
  );
}
