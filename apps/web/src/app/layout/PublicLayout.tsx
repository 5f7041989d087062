import { Outlet } from 'react-router';
import { Deferred } from '../../components/Deferred';
import { Footer } from './Footer';
import { PublicFrame } from './public-frame';
import { PublicHeader } from './PublicHeader';
import { useDocumentTitle } from './use-document-title';

export function PublicLayout() {
  useDocumentTitle();
  return (
    // Issue 21 point 5: the footer comes in a second, background render, with the landing page's
    // sections below its hero (features/public/LandingPage.tsx): drawn in the first, right under
    // the hero, it would move down when they arrive.
    <PublicFrame header={<PublicHeader />} footer={<Deferred><Footer /></Deferred>}>
      <Outlet />
    </PublicFrame>
  );
}
