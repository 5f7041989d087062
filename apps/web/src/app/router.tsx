import { createBrowserRouter } from 'react-router';
import { LandingPage } from '../features/public/LandingPage';
import { AppLayout } from './layout/AppLayout';
import { PublicLayout } from './layout/PublicLayout';
import { NotFoundPage } from './NotFoundPage';
import { RequireRole } from './RequireRole';

const EVERY_USER = ['rider', 'admin', 'driver', 'fleetadmin'] as const;

/** Section 2's routes; pages other than the landing page load when first opened. */
export const router = createBrowserRouter([
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: 'about-us', lazy: async () => ({ Component: (await import('../features/public/AboutUsPage')).AboutUsPage }) },
      { path: 'privacy-policy', lazy: async () => ({ Component: (await import('../features/public/PrivacyPolicyPage')).PrivacyPolicyPage }) },
      { path: 'login', lazy: async () => ({ Component: (await import('../features/auth/LoginPage')).LoginPage }) },
      { path: 'register', lazy: async () => ({ Component: (await import('../features/auth/RegisterPage')).RegisterPage }) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    // Signed-in screens; a route for fewer user types wraps its page in its own RequireRole.
    element: (
      <RequireRole allowed={EVERY_USER}>
        <AppLayout />
      </RequireRole>
    ),
    children: [
      { path: 'bookings', lazy: async () => ({ Component: (await import('../features/bookings/BookingsPage')).BookingsPage }) },
      { path: 'bookings/:id', lazy: async () => ({ Component: (await import('../features/trip/BookingPage')).BookingPage }) },
      { path: 'profile', lazy: async () => ({ Component: (await import('../features/profile/ProfilePage')).ProfilePage }) },
    ],
  },
]);
