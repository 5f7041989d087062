import { Outlet } from 'react-router';
import { Footer } from './Footer';
import { PublicFrame } from './public-frame';
import { PublicHeader } from './PublicHeader';
import { useDocumentTitle } from './use-document-title';

export function PublicLayout() {
  useDocumentTitle();
  return (
    <PublicFrame header={<PublicHeader />} footer={<Footer />}>
      <Outlet />
    </PublicFrame>
  );
}
