import { canOpenRoute, landingRouteAfterLogin, PROTECTED_ROUTES, type UserType } from '@rideway/domain';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, refusal, type ApiAnswer } from '../test/fake-api';
import { queryWrapper } from '../test/render';
import { routes } from './route-table';
import { SCREENS } from './screens';

// The layouts and pages stand aside: what is under test is which screen each role reaches.
vi.mock('./layout/AppLayout', async () => ({ AppLayout: (await import('react-router')).Outlet }));
vi.mock('./layout/PublicLayout', async () => ({ PublicLayout: (await import('react-router')).Outlet }));
vi.mock('./routes/landing', async () => ({ LandingRoute: (await import('../test/stub-screen')).StubScreen }));
vi.mock('./routes/bookings', async () => ({ BookingsRoute: (await import('../test/stub-screen')).StubScreen }));
vi.mock('./routes/booking', async () => ({ BookingRoute: (await import('../test/stub-screen')).StubScreen }));
vi.mock('./routes/profile', async () => ({ ProfileRoute: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/auth/LoginPage', async () => ({ LoginPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/dashboard/DashboardPage', async () => ({ DashboardPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/booking/AddBookingPage', async () => ({ AddBookingPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/admin/CarTypesPage', async () => ({ CarTypesPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/admin/CancelReasonsPage', async () => ({ CancelReasonsPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/admin/AddToWalletPage', async () => ({ AddToWalletPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/admin/WithdrawsPage', async () => ({ WithdrawsPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/admin/PaymentsPage', async () => ({ PaymentsPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/admin/SettingsPage', async () => ({ SettingsPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/admin/PromosPage', async () => ({ PromosPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/admin/NotificationsPage', async () => ({ NotificationsPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/documents/DocumentsPage', async () => ({ DocumentsPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/documents/DocumentReviewPage', async () => ({ DocumentReviewPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/admin/MessagesPage', async () => ({ MessagesPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/admin/AuditLogPage', async () => ({ AuditLogPage: (await import('../test/stub-screen')).StubScreen }));
vi.mock('../features/admin/UsersPage', async () => {
  const { StubScreen } = await import('../test/stub-screen');
  return { RidersPage: StubScreen, DriversPage: StubScreen, FleetAdminsPage: StubScreen };
});
vi.mock('../features/admin/ReportsPages', async () => {
  const { StubScreen } = await import('../test/stub-screen');
  return { EarningReportsPage: StubScreen, DriverEarningsPage: StubScreen };
});

const ROLES: UserType[] = ['rider', 'driver', 'fleetadmin', 'admin'];

const session = (usertype: UserType | null): ApiAnswer => (usertype ? { status: 200, body: { user: { id: 'u1', usertype } } } : refusal(401, 'not_logged_in'));

function open(path: string, usertype: UserType | null) {
  fakeApi({ 'GET /api/session': session(usertype) });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />, { wrapper: queryWrapper().wrapper });
  return router;
}

describe('the route table (section 2)', () => {
  it('builds a screen for every protected route', () => {
    expect(Object.keys(SCREENS).sort()).toEqual(Object.keys(PROTECTED_ROUTES).sort());
  });

  // The role matrix comes from the domain's table, so a screen guarded otherwise fails here.
  const matrix = Object.keys(SCREENS).flatMap((path) => [null, ...ROLES].map((usertype) => ({ path, usertype, allowed: canOpenRoute(path, usertype) })));
  it.each(matrix)('$path for $usertype: opens only when section 2 allows it ($allowed)', async ({ path, usertype, allowed }) => {
    const router = open(path, usertype);
    const landed = allowed ? path : '/login';
    expect(await screen.findByRole('heading', { name: `screen ${landed}` })).toBeTruthy();
    expect(router.state.location.pathname).toBe(landed);
  });

  it.each([null, ...ROLES])('a booking\'s own page opens for every signed-in user, not %s when signed out', async (usertype) => {
    const router = open('/bookings/b1', usertype);
    const landed = usertype ? '/bookings/b1' : '/login';
    expect(await screen.findByRole('heading', { name: `screen ${landed}` })).toBeTruthy();
    expect(router.state.location.pathname).toBe(landed);
  });

  it.each(ROLES)('lands %s after sign-in on a screen its role may open', async (usertype) => {
    const landing = landingRouteAfterLogin(usertype);
    const router = open(landing, usertype);
    expect(await screen.findByRole('heading', { name: `screen ${landing}` })).toBeTruthy();
    expect(router.state.location.pathname).toBe(landing);
  });

  it('sends admins and fleet admins to the dashboard, drivers to their bookings, riders home', () => {
    expect(Object.fromEntries(ROLES.map((usertype) => [usertype, landingRouteAfterLogin(usertype)]))).toEqual({ rider: '/', driver: '/bookings', fleetadmin: '/dashboard', admin: '/dashboard' });
  });

  it('shows the public pages to a visitor', async () => {
    open('/', null);
    expect(await screen.findByRole('heading', { name: 'screen /' })).toBeTruthy();
    open('/login', null);
    expect(await screen.findByRole('heading', { name: 'screen /login' })).toBeTruthy();
  });

  it.each([null, 'rider'] as const)('answers an unknown path with the not-found page (%s)', async (usertype) => {
    const router = open('/nowhere', usertype);
    expect(await screen.findByRole('heading', { name: 'page_not_found' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/nowhere');
  });
});
