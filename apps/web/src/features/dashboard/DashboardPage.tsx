import type { LatLng } from '@rideway/domain';
import { Alert, Card, CardContent, Container, Grid, Skeleton, Typography } from '@mui/material';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEarningsCards, type LiveDriver } from '../../api/dashboard';
import { useLiveTopic } from '../../api/live';
import { FigureSkeleton } from '../../components/Skeletons';
import { BROWSER_POSITION_MAX_AGE_MS, BROWSER_POSITION_TIMEOUT_MS } from '../../config/ui-constants';
import { useMoney } from '../../hooks/use-money';

const DriversMap = lazy(() => import('./DriversMap'));

type Located = { state: 'pending' } | { state: 'found'; centre: LatLng } | { state: 'unavailable' };

/** The browser's position, asked once; section 2 centres the dashboard map on it. */
function useBrowserPosition(): Located {
  const [located, setLocated] = useState<Located>(() => ('geolocation' in navigator ? { state: 'pending' } : { state: 'unavailable' }));
  useEffect(() => {
    if (!('geolocation' in navigator)) return;
    navigator.geolocation.getCurrentPosition(
      (position) => { setLocated({ state: 'found', centre: { lat: position.coords.latitude, lng: position.coords.longitude } }); },
      () => { setLocated({ state: 'unavailable' }); },
      { timeout: BROWSER_POSITION_TIMEOUT_MS, maximumAge: BROWSER_POSITION_MAX_AGE_MS },
    );
  }, []);
  return located;
}

/**
 * Online drivers as the drivers:live topic tells them: a snapshot, then each move and departure;
 * and where the first driver seen was, kept for the map's centre.
 */
function useLiveDrivers(): { drivers: LiveDriver[]; firstSeen: LatLng | null } {
  const [drivers, setDrivers] = useState<ReadonlyMap<string, LiveDriver>>(new Map());
  const [firstSeen, setFirstSeen] = useState<LatLng | null>(null);
  useLiveTopic('drivers:live', (event) => {
    if (event.event === 'snapshot') {
      const listed = event.data.drivers;
      setDrivers(new Map(listed.map((driver) => [driver.uid, driver])));
      if (listed[0]) setFirstSeen((current) => current ?? listed[0]?.location ?? null);
    }
    if (event.event === 'position') {
      const driver = event.data;
      setDrivers((current) => new Map(current).set(driver.uid, driver));
      setFirstSeen((current) => current ?? driver.location);
    }
    if (event.event === 'offline') {
      const { uid } = event.data;
      setDrivers((current) => {
        const next = new Map(current);
        next.delete(uid);
        return next;
      });
    }
  });
  return { drivers: [...drivers.values()], firstSeen };
}

const CARDS = [
  { key: 'today', label: 'earnings_today' },
  { key: 'thisMonth', label: 'earnings_this_month' },
  { key: 'total', label: 'earnings_total' },
] as const;

/** Section 2's dashboard: gross earnings cards and the live map of active drivers. */
export function DashboardPage() {
  const { t } = useTranslation();
  const money = useMoney();
  const earnings = useEarningsCards();
  const located = useBrowserPosition();
  const { drivers, firstSeen } = useLiveDrivers();
  // Without the browser's position the map opens on the first driver seen, or the whole world.
  const centre = located.state === 'found' ? located.centre : (firstSeen ?? { lat: 20, lng: 0 });
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('dashboard')}
      </Typography>
      <Grid container spacing={2} sx={{ mb: 3 }}>
        {CARDS.map((card) => (
          <Grid key={card.key} size={{ xs: 12, sm: 4 }}>
            <Card variant="outlined" component="section" aria-label={t(card.label)}>
              <CardContent>
                <Typography color="text.secondary">{t(card.label)}</Typography>
                {earnings.data ? (
                  <Typography variant="h4" component="p" data-testid={`earnings-${card.key}`} sx={{ fontWeight: 700 }}>
                    {money(earnings.data[card.key], { currency: earnings.data.currency })}
                  </Typography>
                ) : (
                  <FigureSkeleton />
                )}
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Typography variant="h6" component="h2" gutterBottom>
        {t('live_drivers', { count: drivers.length })}
      </Typography>
      {located.state === 'unavailable' && <Alert severity="info" sx={{ mb: 2 }}>{t('allow_location')}</Alert>}
      {located.state === 'pending' ? (
        <MapSkeleton label={t('loading')} />
      ) : (
        <Suspense fallback={<MapSkeleton label={t('loading')} />}>
          <DriversMap centre={centre} drivers={drivers} label={t('live_map')} />
        </Suspense>
      )}
    </Container>
  );
}

/** The map's place while the browser's position or the map's code loads (issue 17). */
function MapSkeleton({ label }: { label: string }) {
  return <Skeleton variant="rounded" sx={{ height: { xs: 360, md: 480 } }} role="status" aria-busy="true" aria-label={label} data-testid="map-skeleton" />;
}
