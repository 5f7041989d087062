import { LAYOUT_BREAKPOINTS_PX } from '@rideway/domain';
import { createTheme, type Theme } from '@mui/material/styles';

const [sm, md, lg, xl] = LAYOUT_BREAKPOINTS_PX;

/** Section 2's breakpoints: 576, 768, 992 and 1200 px. */
export const makeTheme = (direction: 'ltr' | 'rtl') =>
  createTheme({
    direction,
    breakpoints: { values: { xs: 0, sm, md, lg, xl } },
    // WCAG 2.1 AA: text and filled chips need 4.5:1. MUI's default warning (#ed6c02) and info
    // (#0288d1) reach only 3.1 and 3.9 on white, so darker shades of the same hues are used, and the
    // text colour on a filled colour is chosen for 4.5:1 rather than MUI's default 3:1.
    palette: { primary: { main: '#1b5e20' }, secondary: { main: '#ffb300' }, warning: { main: '#b45309' }, info: { main: '#0369a1' }, contrastThreshold: 4.5 },
    shape: { borderRadius: 10 },
    // The scrollbar's place is kept from the first paint on, from the md breakpoint up (a desktop,
    // where scrollbars take room): the landing page's sections below the hero arrive after the app
    // has taken over the server's drawing (issue 21 point 5), and the scrollbar that came with them
    // moved everything centred sideways, half its width. Not on a phone's widths, where a kept
    // gutter would take 15 px from every page that does not scroll (the admin's tables at 375 px
    // then scrolled sideways) and a phone's own scrollbars take no room.
    components: { MuiCssBaseline: { styleOverrides: (theme: Theme) => ({ html: { [theme.breakpoints.up('md')]: { scrollbarGutter: 'stable' } } }) } },
  });
