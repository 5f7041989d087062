import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import { DRAWER_WIDTH_PX } from '@rideway/domain';
import { AppBar, Avatar, Box, Divider, Drawer, IconButton, List, ListItem, ListItemButton, ListItemIcon, ListItemText, ListSubheader, Toolbar, Typography, useMediaQuery, useTheme } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, Outlet, useLocation, useNavigate } from 'react-router';
import { useLogout, useMe } from '../../api/session';
import { useSettings } from '../../api/settings';
import { menuFor } from './menu';
import { useDocumentTitle } from './use-document-title';
import { DriverSharing } from '../../hooks/sharing';
import { InboxBell } from '../../components/InboxBell';
import { initialsOf } from '../../utils/initials';

/** The signed-in layout: a top bar with appName and the side drawer with the role's menu. */
export function AppLayout() {
  const { t } = useTranslation();
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('lg'));
  const [open, setOpen] = useState(false);
  const { data: me } = useMe();
  const { data: settings } = useSettings();
  const navigate = useNavigate();
  const logout = useLogout(() => navigate('/login'));
  const { pathname } = useLocation();
  useDocumentTitle();
  const menu = (
    <Box component="nav" aria-label={t('nav_main')} sx={{ width: DRAWER_WIDTH_PX }}>
      <Toolbar />
      {/* Every entry is a list item (axe's list rule); the logout sits in a list of its own after the divider. */}
      <List>
        {(me ? menuFor(me.usertype) : []).map((entry) =>
          'links' in entry ? (
            <ListItem key={entry.label} disablePadding sx={{ display: 'block' }}>
              <ListSubheader id={`menu-group-${entry.label}`} component="div" disableSticky>
                {t(entry.label)}
              </ListSubheader>
              <List disablePadding aria-labelledby={`menu-group-${entry.label}`}>
                {entry.links.map((link) => (
                  <ListItem key={link.to} disablePadding>
                    <ListItemButton component={RouterLink} to={link.to} selected={pathname === link.to} aria-current={pathname === link.to ? 'page' : undefined} onClick={() => { setOpen(false); }} sx={{ paddingInlineStart: 4 }}>
                      <ListItemText primary={t(link.label)} />
                    </ListItemButton>
                  </ListItem>
                ))}
              </List>
            </ListItem>
          ) : (
            <ListItem key={entry.to} disablePadding>
              <ListItemButton component={RouterLink} to={entry.to} selected={pathname === entry.to} aria-current={pathname === entry.to ? 'page' : undefined} onClick={() => { setOpen(false); }}>
                <ListItemText primary={t(entry.label)} />
              </ListItemButton>
            </ListItem>
          ),
        )}
      </List>
      <Divider />
      <List>
        <ListItem disablePadding>
          <ListItemButton onClick={() => { logout.mutate(); }}>
            <ListItemIcon>
              <LogoutIcon />
            </ListItemIcon>
            <ListItemText primary={t('logout')} />
          </ListItemButton>
        </ListItem>
      </List>
    </Box>
  );
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar position="fixed" sx={{ zIndex: theme.zIndex.drawer + 1 }}>
        <Toolbar>
          {!wide && (
            <IconButton color="inherit" edge="start" aria-label={t('open_menu')} onClick={() => { setOpen(true); }} sx={{ marginInlineEnd: 1 }}>
              <MenuIcon />
            </IconButton>
          )}
          <Typography variant="h6" component="div" sx={{ fontWeight: 700 }}>
            {settings?.appName}
          </Typography>
          <Box sx={{ flexGrow: 1 }} />
          <InboxBell me={me} />
          {/* Issue 20: the own photo (or initials), a way to the profile. */}
          {me && (
            <IconButton component={RouterLink} to="/profile" aria-label={t('profile')} sx={{ p: 0.5, marginInlineStart: 0.5 }}>
              <Avatar src={me.profile_image ?? undefined} alt="" data-testid="top-bar-avatar" sx={{ width: 36, height: 36, bgcolor: 'secondary.main', color: 'secondary.contrastText', fontSize: 16 }}>
                {initialsOf(`${me.firstName} ${me.lastName}`)}
              </Avatar>
            </IconButton>
          )}
        </Toolbar>
      </AppBar>
      <Drawer variant={wide ? 'permanent' : 'temporary'} open={wide || open} onClose={() => { setOpen(false); }} sx={{ width: DRAWER_WIDTH_PX, flexShrink: 0, '& .MuiDrawer-paper': { width: DRAWER_WIDTH_PX } }}>
        {menu}
      </Drawer>
      <Box component="main" sx={{ flexGrow: 1, minWidth: 0 }}>
        <Toolbar />
        <DriverSharing me={me}>
          <Outlet />
        </DriverSharing>
      </Box>
    </Box>
  );
}
