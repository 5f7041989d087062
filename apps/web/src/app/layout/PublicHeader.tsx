import { DRAWER_WIDTH_PX, HEADER_SCROLL_CHANGE_PX } from '@rideway/domain';
import { Box, Drawer, List, ListItem, ListItemButton, ListItemText, useScrollTrigger } from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { api } from '../../api/client';
import { useMe } from '../../api/session';
import { useSettings } from '../../api/settings';
import { chooseLanguage } from '../../i18n/languages';
import { useLanguages } from '../languages-context';
import { PublicHeaderBar } from './public-frame';
import { publicLinks, PublicHeaderItems } from './public-header-items';

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
  const [open, setOpen] = useState(false);
  const signedIn = Boolean(me);
  const actions = useMemo(() => ({
    chooseLanguage: (code: string) => {
      void chooseLanguage(code);
      if (signedIn) saveLanguage(code);
    },
    openMenu: () => { setOpen(true); },
  }), [signedIn]);
  return (
    <PublicHeaderBar scrolled={scrolled}>
      <PublicHeaderItems
        appName={settings?.appName}
        signedIn={signedIn}
        social={{ FacebookHandle: settings?.FacebookHandle, TwitterHandle: settings?.TwitterHandle, InstagramHandle: settings?.InstagramHandle }}
        languages={languages.length > 1 ? { options: languages, value: i18n.language } : null}
        actions={actions}
      />
      {/* The menu button's drawer, which only a phone shows the button for (PublicHeaderItems). */}
      <Drawer anchor="right" open={open} onClose={() => { setOpen(false); }}>
        <Box component="nav" aria-label={t('nav_main')} sx={{ width: DRAWER_WIDTH_PX }}>
          <List>
            {publicLinks(t, signedIn).map((link) => (
              <ListItem key={link.to} disablePadding>
                <ListItemButton component={RouterLink} to={link.to} onClick={() => { setOpen(false); }}>
                  <ListItemText primary={link.label} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        </Box>
      </Drawer>
    </PublicHeaderBar>
  );
}
