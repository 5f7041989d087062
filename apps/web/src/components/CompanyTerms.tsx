import { Box, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The CompanyTerms setting as a link when it is a web address (the admin may enter either), else null. */
export function termsLink(terms: string): string | null {
  const text = terms.trim();
  return /^https?:\/\/\S+$/i.test(text) ? text : null;
}

/**
 * Issue 17 point 12: the operator's terms (the CompanyTerms setting, set by the admin in
 * Settings): a link to them when the setting is a web address, else the text itself, its line
 * breaks kept. Nothing when the setting is empty.
 */
export function CompanyTerms({ terms, compact = false }: { terms: string; /** In a form: a box that scrolls past a few lines. */ compact?: boolean }) {
  const { t } = useTranslation();
  if (terms.trim() === '') return null;
  const link = termsLink(terms);
  if (link) {
    return (
      <Link href={link} target="_blank" rel="noopener noreferrer" data-testid="company-terms">
        {t('terms_read')}
      </Link>
    );
  }
  return (
    <Box data-testid="company-terms" sx={compact ? { p: 1.5, borderRadius: 1, bgcolor: 'action.hover', maxHeight: 160, overflowY: 'auto' } : {}}>
      <Typography variant="body2" sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{terms.trim()}</Typography>
    </Box>
  );
}
