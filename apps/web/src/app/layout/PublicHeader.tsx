import FacebookIcon from '@mui/icons-material/Facebook';
import InstagramIcon from '@mui/icons-material/Instagram';
import MenuIcon from '@mui/icons-material/Menu';
import XIcon from '@mui/icons-material/X';
import { DRAWER_WIDTH_PX, HEADER_SCROLL_CHANGE_PX } from '@rideway/domain';
import { Box, Button, Drawer, IconButton, List, ListItem, ListItemButton, ListItemText, MenuItem, TextField, Typography, useMediaQuery, useScrollTrigger, useTheme } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { api } from '../../api/client';
import { useMe } from '../../api/session';
import { useSettings } from '../../api/settings';
import { chooseLanguage } from '../../i18n/languages';
import { useLanguages } from '../languages-context';
import { PublicHeaderBar } from './public-frame';

/**
 * Issue 19: a signed-in user's choice is kept on the profile, so push, SMS and mail reach them in
 * it. The app has already switched; a failed save only leaves messages in the earlier language.
 */
function saveLanguage(language: string): void {
  void api('/api/me', { method: 'PATCH', body: { language } }).catch(() => undefined);
}

/** Section 2's public header: links, language, social links when set, a colour change after 400 px. */
export function PublicHeader() {
  const { t, i18n } = useTranslation();
  const { data: me } = useMe();
  const { data: settings } = useSettings();
  const languages = useLanguages();
  const scrolled = useScrollTrigger({ disableHysteresis: true, threshold: HEADER_SCROLL_CHANGE_PX });
  // On a phone the links move into a drawer, so the bar keeps to one line.
  const narrow = useMediaQuery(useTheme().breakpoints.down('md'));
  const [open, setOpen] = useState(false);
  const social = [
    { href: settings?.FacebookHandle, label: 'Facebook', icon: <FacebookIcon /> },
    { href: settings?.TwitterHandle, label: 'Twitter', icon: <XIcon /> },
    { href: settings?.InstagramHandle, label: 'Instagram', icon: <InstagramIcon /> },
  ].filter((link) => Boolean(link.href));
  const links = [
    { to: '/', label: t('nav_home') },
    { to: '/bookings', label: me ? t('nav_my_account') : t('nav_login_signup') },
    { to: '/about-us', label: t('nav_about_us') },
    { to: '/privacy-policy', label: t('nav_privacy_policy') },
  ];
  return (
    <PublicHeaderBar scrolled={scrolled}>
      {/* Named before the settings (and appName) have loaded too: a link always has a name (axe: link-name). */}
      <Typography component={RouterLink} to="/" aria-label={settings?.appName ? undefined : t('nav_home')} variant="h6" sx={{ color: 'inherit', textDecoration: 'none', fontWeight: 700, flexGrow: 1 }}>
        {settings?.appName}
      </Typography>
      {narrow ? (
        <Drawer anchor="right" open={open} onClose={() => { setOpen(false); }}>
          <Box component="nav" aria-label={t('nav_main')} sx={{ width: DRAWER_WIDTH_PX }}>
            <List>
              {links.map((link) => (
                <ListItem key={link.to} disablePadding>
                  <ListItemButton component={RouterLink} to={link.to} onClick={() => { setOpen(false); }}>
                    <ListItemText primary={link.label} />
                  </ListItemButton>
                </ListItem>
              ))}
            </List>
          </Box>
        </Drawer>
      ) : (
        <Box component="nav" aria-label={t('nav_main')} sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
          {links.map((link) => (
            <Button key={link.to} component={RouterLink} to={link.to} color="inherit" size="small">
              {link.label}
            </Button>
          ))}
        </Box>
      )}
      {social.map((link) => (
        <IconButton key={link.label} component="a" href={link.href} target="_blank" rel="noopener" aria-label={link.label} color="inherit" size="small">
          {link.icon}
        </IconButton>
      ))}
      {languages.length > 1 && (
        <TextField select size="small" label={t('language')} value={i18n.language} onChange={(event) => { void chooseLanguage(event.target.value); if (me) saveLanguage(event.target.value); }}
          // The bar's own text colour, so the label, value and outline keep their contrast on the green bar after scrolling too.
          sx={{
            minWidth: { xs: 104, md: 120 },
            '& .MuiInputLabel-root, & .MuiInputLabel-root.Mui-focused, & .MuiOutlinedInput-root, & .MuiSelect-icon': { color: 'inherit' },
            '& .MuiOutlinedInput-notchedOutline, & .MuiOutlinedInput-root:hover .MuiOutlinedInput-notchedOutline, & .MuiOutlinedInput-root.Mui-focused .MuiOutlinedInput-notchedOutline': { borderColor: 'currentColor' },
          }}
        >
          {languages.map((language) => (
            <MenuItem key={language.code} value={language.code}>
              {language.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {narrow && (
        <IconButton color="inherit" edge="end" aria-label={t('open_menu')} onClick={() => { setOpen(true); }}>
          <MenuIcon />
        </IconButton>
      )}
    </PublicHeaderBar>
  );
}
