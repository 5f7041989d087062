import { isProtectedRoute, PROTECTED_ROUTES } from '@rideway/domain';
import { Outlet, type RouteObject } from 'react-router';
import { PublicLayout } from './layout/PublicLayout';
import { NotFoundPage } from './NotFoundPage';
import { RequireRole } from './RequireRole';
import { LandingRoute } from './routes/landing';
import { SCREENS } from './screens';

const EVERY_USER = ['rider', 'admin', 'driver', 'fleetadmin'] as const;
const USER_MANAGERS = ['admin', 'fleetadmin'] as const;

/** Section 2's routes; pages other than the landing page load when first opened. */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { index: true, element: <LandingRoute /> },
      { path: 'about-us', lazy: async () => ({ Component: (await import('../features/public/AboutUsPage')).AboutUsPage }) },
      { path: 'privacy-policy', lazy: async () => ({ Component: (await import('../features/public/PrivacyPolicyPage')).PrivacyPolicyPage }) },
      { path: 'terms', lazy: async () => ({ Component: (await import('../features/public/TermsPage')).TermsPage }) },
      { path: 'login', lazy: async () => ({ Component: (await import('../features/auth/LoginPage')).LoginPage }) },
      // Issue 20 point 5: the second step of a staff member's sign-in.
      { path: 'login/2fa', lazy: async () => ({ Component: (await import('../features/auth/TwoFactorPage')).TwoFactorPage }) },
      { path: 'register', lazy: async () => ({ Component: (await import('../features/auth/RegisterPage')).RegisterPage }) },
      { path: 'reset-password', lazy: async () => ({ Component: (await import('../features/auth/ResetPasswordPage')).ResetPasswordPage }) },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    // Signed-in screens, each behind section 2's roles for it.
    element: (
      <RequireRole allowed={EVERY_USER}>
        <Outlet />
      </RequireRole>
    ),
    children: [
      {
        // Their layout (the side menu, the inbox bell, a driver's position sharing) loads with the
        // first of them, beside its screen: a visitor's landing page evaluates none of it (issue 21 point 5).
        lazy: async () => ({ Component: (await import('./layout/AppLayout')).AppLayout }),
        children: [
          ...Object.entries(SCREENS).map(([path, screen]) => ({
            element: (
              <RequireRole allowed={isProtectedRoute(path) ? PROTECTED_ROUTES[path] : []}>
                <Outlet />
              </RequireRole>
            ),
            children: [{ path: path.slice(1), lazy: screen }],
          })),
          { path: 'bookings/:id', lazy: async () => ({ Component: (await import('./routes/booking')).BookingRoute }) },
          // Issue 20 point 6: one user's page, for those who see the user tables (the server scopes a fleet admin to its drivers).
          {
            element: (
              <RequireRole allowed={USER_MANAGERS}>
                <Outlet />
              </RequireRole>
            ),
            children: [{ path: 'users/:id', lazy: async () => ({ Component: (await import('../features/admin/UserDetailPage')).UserDetailPage }) }],
          },
        ],
      },
    ],
  },
];
