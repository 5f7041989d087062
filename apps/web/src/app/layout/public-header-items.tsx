import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import MenuIcon from '@mui/icons-material/Menu';
import XIcon from '@mui/icons-material/X';
import { Box, Button, IconButton, MenuItem, TextField, Typography } from '@mui/material';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { DraftPart } from './draft-marks';

/** Section 2's social links, each shown when its setting has a value. */
export const SOCIAL_LINKS = [
  { setting: 'FacebookHandle', label: 'Facebook', Icon: FacebookIcon },
  { setting: 'TwitterHandle', label: 'Twitter', Icon: XIcon },
  { setting: 'InstagramHandle', label: 'Instagram', Icon: InstagramIcon },
] as const;
export type SocialSetting = (typeof SOCIAL_LINKS)[number]['setting'];

/** Section 2's public links; /bookings is 'my account' for someone signed in, 'login/signup' otherwise. */
export const publicLinks = (t: TFunction, signedIn: boolean) => [
  { to: '/', label: t('nav_home') },
  { to: '/bookings', label: signedIn ? t('nav_my_account') : t('nav_login_signup') },
  { to: '/about-us', label: t('nav_about_us') },
  { to: '/privacy-policy', label: t('nav_privacy_policy') },
];

export type PublicHeaderItemsProps = {
  /** The appName setting; undefined until the settings are known. */
  appName: string | undefined;
  signedIn: boolean;
  /** Each social link's address, where its setting has one. */
  social: Partial<Record<SocialSetting, string>>;
  /** The language selector's choices and the language shown; null when only one language is offered. */
  languages: { options: readonly { code: string; name: string }[]; value: string } | null;
  /**
   * What the header's controls do. The landing page's draft has none: until the app takes over,
   * its selector and menu button say they are not usable yet (aria-disabled) rather than do nothing.
   */
  actions?: { chooseLanguage: (code: string) => void; openMenu: () => void };
};

/**
 * What section 2's public header bar holds: appName, the links (behind a menu button on a phone),
 * the social links and the language selector. The app (PublicHeader) and the server's copy of the
 * landing page (app/landing-shell.tsx) both draw it, so the app's first render puts each item
 * where it already stood. Phone or not is decided by the stylesheet, which the server's copy has
 * too, rather than by a media query in script.
 */
export function PublicHeaderItems({ appName, signedIn, social, languages, actions }: PublicHeaderItemsProps) {
  const { t } = useTranslation();
  const inert = actions ? undefined : true;
  return (
    <>
      {/* Named before the settings (and appName) have loaded too: a link always has a name (axe: link-name). */}
      <Typography component={RouterLink} to="/" aria-label={appName ? undefined : t('nav_home')} variant="h6" sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700, flexGrow: 1 }}>
        {appName}
      </Typography>
      {/* On a phone the links move into the menu button's drawer (PublicHeader), so the bar keeps to one line. */}
      <Box component="nav" aria-label={t('nav_main')} sx={{ display: { xs: 'none', md: 'flex' }, flexWrap: 'wrap', gap: 0.5 }}>
        {publicLinks(t, signedIn).map((link) => (
          <Button key={link.to} component={RouterLink} to={link.to} color="inherit" size="small">
            {link.label}
          </Button>
        ))}
      </Box>
      {SOCIAL_LINKS.map(({ setting, label, Icon }) => {
        const href = social[setting];
        return href ? (
          <DraftPart key={setting} when={`setting:${setting}`}>
            <IconButton component="a" href={href} target="_blank" rel="noopener" aria-label={label} color="inherit" size="small">
              <Icon />
            </IconButton>
          </DraftPart>
        ) : null;
      })}
      {languages && (
        <DraftPart when="languages">
          <TextField select size="small" label={t('language')} value={languages.value} onChange={(event) => { actions?.chooseLanguage(event.target.value); }}
            slotProps={{ select: { SelectDisplayProps: { 'aria-disabled': inert } } }}
            // The bar's own text colour, so the label, value and outline keep their contrast on the green bar after scrolling too.
            sx={{
              minWidth: { xs: 104, md: 120 },
              '& .MuiInputLabel-root, & .MuiInputLabel-root.Mui-focused, & .MuiOutlinedInput-root, & .MuiSelect-icon': { color: 'inherit' },
              '& .MuiOutlinedInput-notchedOutline, & .MuiOutlinedInput-root:hover .MuiOutlinedInput-notchedOutline, & .MuiOutlinedInput-root.Mui-focused .MuiOutlinedInput-notchedOutline': { borderColor: 'currentColor' },
            }}
          >
            {languages.options.map((language) => (
              <MenuItem key={language.code} value={language.code}>
                {language.name}
              </MenuItem>
            ))}
          </TextField>
        </DraftPart>
      )}
      <IconButton color="inherit" edge="end" aria-label={t('open_menu')} aria-disabled={inert} onClick={actions?.openMenu} sx={{ display: { md: 'none' } }}>
        <MenuIcon />
      </IconButton>
    </>
  );
}
