import { Container, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../api/settings';
import { CompanyTerms } from '../../components/CompanyTerms';

/** Issue 17 point 12: the operator's terms and conditions (the CompanyTerms setting), linked from the footer. */
export function TermsPage() {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  const terms = settings?.CompanyTerms ?? '';
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('terms_title')}
      </Typography>
      {settings && (terms.trim() === '' ? <Typography color="text.secondary">{t('no_data_available')}</Typography> : <CompanyTerms terms={terms} />)}
    </Container>
  );
}
