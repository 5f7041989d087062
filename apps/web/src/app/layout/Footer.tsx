import { Box, Link, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSettings } from '../../api/settings';
import { termsLink } from '../../components/CompanyTerms';

/** Section 2's footer: the public links and a copyright line with the company when set. */
export function Footer() {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  const links = [
    { to: '/', label: t('nav_home') },
    { to: '/bookings', label: t('nav_my_account') },
    { to: '/about-us', label: t('nav_about_us') },
    { to: '/privacy-policy', label: t('nav_privacy_policy') },
    // Issue 17 point 12: the operator's terms when set: their web address, or the page showing their text.
    ...(settings?.CompanyTerms.trim() ? [{ to: termsLink(settings.CompanyTerms) ?? '/terms', label: t('nav_terms') }] : []),
  ];
  return (
    <Box component="footer" sx={{ bgcolor: 'grey.900', color: 'grey.100', px: 3, py: 4, mt: 'auto' }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        {links.map((link) =>
          link.to.startsWith('/') ? (
            <Link key={link.to} component={RouterLink} to={link.to} color="inherit" underline="hover">
              {link.label}
            </Link>
          ) : (
            <Link key={link.to} href={link.to} target="_blank" rel="noopener noreferrer" color="inherit" underline="hover">
              {link.label}
            </Link>
          ),
        )}
      </Stack>
      <Typography variant="body2" data-testid="copyright">
        © {new Date().getFullYear()}{' '}
        {settings?.CompanyWebsite ? (
          <Link href={settings.CompanyWebsite} color="inherit" target="_blank" rel="noopener">
            {settings.CompanyName || settings.CompanyWebsite}
          </Link>
        ) : (
          settings?.CompanyName
        )}{' '}
        {t('all_rights_reserved')}
      </Typography>
    </Box>
  );
}
