import { Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** Section 2: two static paragraphs. */
export function AboutUsPage() {
  const { t } = useTranslation();
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('nav_about_us')}
      </Typography>
      <Typography sx={{ mb: 2 }}>{t('about_us_1')}</Typography>
      <Typography sx={{ mb: 2 }}>{t('about_us_2')}</Typography>
    </Container>
  );
}
