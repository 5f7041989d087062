import { LAYOUT_BREAKPOINTS_PX } from '@rideway/domain';
import { createTheme } from '@mui/material/styles';

const [sm, md, lg, xl] = LAYOUT_BREAKPOINTS_PX;

/** Section 2's breakpoints: 576, 768, 992 and 1200 px. */
export const makeTheme = (direction: 'ltr' | 'rtl') =>
  createTheme({
    direction,
    breakpoints: { values: { xs: 0, sm, md, lg, xl } },
    palette: { primary: { main: '#1b5e20' }, secondary: { main: '#ffb300' } },
    shape: { borderRadius: 10 },
  });
