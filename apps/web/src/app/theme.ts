import { createTheme } from '@mui/material/styles';

/** Section 2's breakpoints: 576, 768, 992 and 1200 px. */
export const makeTheme = (direction: 'ltr' | 'rtl') =>
  createTheme({
    direction,
    breakpoints: { values: { xs: 0, sm: 576, md: 768, lg: 992, xl: 1200 } },
    palette: { primary: { main: '#1b5e20' }, secondary: { main: '#ffb300' } },
    shape: { borderRadius: 10 },
  });
