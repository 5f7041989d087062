import { Container, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../api/settings';

/** Section 2's privacy policy sections, in its order. */
const SECTIONS = ['collected', 'log_data', 'cookies', 'providers', 'security', 'links', 'children', 'changes', 'contact'] as const;

export function PrivacyPolicyPage() {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  return (
    <Container maxWidth="md" sx={{ py: 6 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('nav_privacy_policy')}
      </Typography>
      {SECTIONS.map((section) => (
        <section key={section}>
          <Typography variant="h6" component="h2" sx={{ mt: 3 }}>
            {t(`privacy_${section}_title`)}
          </Typography>
          <Typography>{t(`privacy_${section}_text`)}</Typography>
        </section>
      ))}
      {settings?.contact_email && (
        <Typography sx={{ mt: 1 }}>
          <Link href={`mailto:${settings.contact_email}`}>{settings.contact_email}</Link>
        </Typography>
      )}
    </Container>
  );
}
