import { Box, Link, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSettings } from '../../api/settings';

/** Section 2's footer: the public links and a copyright line with the company when set. */
export function Footer() {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  const links = [
    { to: '/', label: t('nav_home') },
    { to: '/bookings', label: t('nav_my_account') },
    { to: '/about-us', label: t('nav_about_us') },
    { to: '/privacy-policy', label: t('nav_privacy_policy') },
  ];
  return (
    <Box component="footer" sx={{ bgcolor: 'grey.900', color: 'grey.100', px: 3, py: 4, mt: 'auto' }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
        {links.map((link) => (
          <Link key={link.to} component={RouterLink} to={link.to} color="inherit" underline="hover">
            {link.label}
          </Link>
        ))}
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
