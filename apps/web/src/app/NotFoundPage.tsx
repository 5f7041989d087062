import { Button, Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation();
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
