import BoltIcon from '@mui/icons-material/Bolt';
import InstallIcon from '@mui/icons-material/InstallMobile';
import PaymentsIcon from '@mui/icons-material/Payments';
import ShieldIcon from '@mui/icons-material/VerifiedUser';
import { Box, Button, Card, CardContent, Container, Grid, Stack, Typography } from '@mui/material';
import type { User } from '@rideway/contract';
import { showsHeroBookingForm } from '@rideway/domain';
import { Suspense, useDeferredValue, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMe } from '../../api/session';
import { useSettings } from '../../api/settings';
import { Deferred } from '../../components/Deferred';
import { useInstallPrompt } from './install-prompt';
import { LandingHero } from './LandingHero';

const HIGHLIGHTS = [
  { key: 'live', icon: <BoltIcon fontSize="large" color="primary" /> },
  { key: 'fair', icon: <PaymentsIcon fontSize="large" color="primary" /> },
  { key: 'safe', icon: <ShieldIcon fontSize="large" color="primary" /> },
] as const;

/** A store link is followed only when it is a web address (not, say, a javascript: one). */
const isWebLink = (href: string | undefined): href is string => {
  if (!href) return false;
  try {
    return ['https:', 'http:'].includes(new URL(href).protocol);
  } catch {
    return false;
  }
};

/** The highlights and the app download section, below the hero. */
function LandingSections() {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  const { canInstall, install } = useInstallPrompt();
  // Store links only for the stores the admin has set (section 3's AppleStoreLink, PlayStoreLink).
  const stores = [
    { href: settings?.AppleStoreLink, label: t('app_store') },
    { href: settings?.PlayStoreLink, label: t('play_store') },
  ].flatMap(({ href, label }) => (isWebLink(href) ? [{ href, label }] : []));
  return (
    <>
      <Container sx={{ py: 8 }} component="section" aria-labelledby="highlights">
        <Typography id="highlights" variant="h4" component="h2" sx={{ mb: 4, textAlign: 'center' }}>
          {t('highlights_title')}
        </Typography>
        <Grid container spacing={3}>
          {HIGHLIGHTS.map(({ key, icon }) => (
            <Grid key={key} size={{ xs: 12, md: 4 }}>
              <Card variant="outlined" sx={{ height: '100%' }}>
                <CardContent>
                  {icon}
                  <Typography variant="h6" component="h3" sx={{ mt: 1 }}>
                    {t(`highlight_${key}_title`)}
                  </Typography>
                  <Typography color="text.secondary">{t(`highlight_${key}_text`)}</Typography>
                </CardContent>
              </Card>
            </Grid>
          ))}
        </Grid>
      </Container>
      <Box component="section" aria-labelledby="download" sx={{ bgcolor: 'grey.100', py: 8 }}>
        <Container>
          <Typography id="download" variant="h4" component="h2">
            {t('download_title')}
          </Typography>
          <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
            {t('download_text')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { xs: 'stretch', sm: 'center' } }}>
            {/* Where the browser offers to install this web app (its beforeinstallprompt event). */}
            {canInstall && (
              <Button variant="contained" startIcon={<InstallIcon />} onClick={() => void install()}>
                {t('install_app')}
              </Button>
            )}
            {stores.map((store) => (
              <Button key={store.label} variant={canInstall ? 'outlined' : 'contained'} href={store.href} target="_blank" rel="noopener">
                {store.label}
              </Button>
            ))}
          </Stack>
        </Container>
      </Box>
    </>
  );
}

/**
 * The landing page: the hero with the slogan and the booking form, three product highlights, the
 * app download section. The booking form and its placeholder are the booking feature's; the app passes them in.
 */
export function LandingPage({ bookingForm, formPlaceholder }: { bookingForm: (me: User | null) => ReactNode; formPlaceholder: (signedIn: boolean) => ReactNode }) {
  const session = useMe();
  // Issue 21 point 5: the session's answer swaps the placeholder for the form in a background
  // render that yields to the browser (a query's answer alone re-renders at once, in one long
  // task on a phone).
  const me = useDeferredValue(session.data);
  const isPending = useDeferredValue(session.isPending);
  // Section 2: visitors, riders and admins get the booking form; other roles the slogan alone.
  // Issue 17: while the session is asked for, the form's shape holds its place (most visitors get the form).
  let heroForm: ReactNode = null;
  if (isPending) heroForm = formPlaceholder(false);
  else if (showsHeroBookingForm(me?.usertype ?? null)) heroForm = <Suspense fallback={formPlaceholder(Boolean(me))}>{bookingForm(me ?? null)}</Suspense>;
  return (
    <>
      <LandingHero form={heroForm} />
      {/* Issue 21 point 5: the app's first render, which takes over the server's drawing, holds
          only what the server drew (whose styles are already in), not the page below the fold too,
          in one long commit on a phone. The footer waits alike (app/layout/PublicLayout.tsx), so
          nothing shown moves down when these arrive. */}
      <Deferred>
        <LandingSections />
      </Deferred>
    </>
  );
}
