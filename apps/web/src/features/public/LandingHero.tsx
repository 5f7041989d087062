import { Box, Container, Grid, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The landing page's hero: the slogan and, beside it, the booking form (`form`), or the slogan
 * alone across the page when `form` is null. The server sends it already drawn, with the form's
 * placeholder (app/landing-shell.tsx), so its first paint does not wait for the app's script.
 */
export function LandingHero({ form }: { form: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ background: 'linear-gradient(135deg, #1b5e20 0%, #2e7d32 60%, #ffb300 140%)', color: 'common.white', py: { xs: 6, md: 12 } }}>
      <Container>
        <Grid container spacing={4} sx={{ alignItems: 'center' }}>
          <Grid size={{ xs: 12, md: form ? 6 : 12 }}>
            <Typography variant="h3" component="h1" sx={{ fontWeight: 800, fontSize: { xs: '2rem', md: '3rem' } }}>
              {t('hero_slogan')}
            </Typography>
            <Typography variant="h6" component="p" sx={{ mt: 2, opacity: 0.9 }}>
              {t('hero_subtitle')}
            </Typography>
          </Grid>
          {form && <Grid size={{ xs: 12, md: 6 }}>{form}</Grid>}
        </Grid>
      </Container>
    </Box>
  );
}
