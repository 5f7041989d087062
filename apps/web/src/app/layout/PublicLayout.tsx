import { Box } from '@mui/material';
import { Outlet } from 'react-router';
import { Footer } from './Footer';
import { PublicHeader } from './PublicHeader';
import { useDocumentTitle } from './use-document-title';

export function PublicLayout() {
  useDocumentTitle();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <PublicHeader />
      <Box component="main" sx={{ flexGrow: 1 }}>
        <Outlet />
      </Box>
      <Footer />
    </Box>
  );
}
