import type { UserType } from '@rideway/domain';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi, refusal, type ApiAnswer } from '../test/fake-api';
import { queryWrapper } from '../test/render';
import { RequireRole } from './RequireRole';

const signedIn = (usertype: UserType): ApiAnswer => ({ status: 200, body: { user: { id: 'u1', usertype } } });

function openGuarded(me: ApiAnswer, allowed: readonly UserType[], entry = '/guarded') {
  const calls = fakeApi({ 'GET /api/session': me });
  const router = createMemoryRouter(
    [
      { path: '/', element: <h1>home</h1> },
      { path: '/guarded', element: <RequireRole allowed={allowed}><h1>guarded page</h1></RequireRole> },
      { path: '/login', element: <h1>login page</h1> },
    ],
    { initialEntries: ['/', entry], initialIndex: 1 },
  );
  render(<RouterProvider router={router} />, { wrapper: queryWrapper().wrapper });
  return { router, calls };
}

describe('RequireRole (section 2 route guard)', () => {
  it('shows a spinner, not the page, until the signed-in user is known', async () => {
    openGuarded(new Promise(() => undefined), ['admin']);
    expect(await screen.findByRole('progressbar', { name: 'loading' })).toBeTruthy();
    expect(screen.queryByText('guarded page')).toBeNull();
    expect(screen.queryByText('login page')).toBeNull();
  });

  it('opens the page for a permitted role', async () => {
    const { router, calls } = openGuarded(signedIn('fleetadmin'), ['admin', 'fleetadmin']);
    expect(await screen.findByRole('heading', { name: 'guarded page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/guarded');
    expect(calls.map((call) => call.path)).toEqual(['/api/session']);
  });

  it('sends a visitor to /login, in place of the guarded entry', async () => {
    const { router } = openGuarded(refusal(401, 'not_logged_in'), ['admin']);
    expect(await screen.findByRole('heading', { name: 'login page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('tells /login the page asked for, with its query and fragment (issue 17)', async () => {
    const { router } = openGuarded(refusal(401, 'not_logged_in'), ['admin'], '/guarded?tab=2#top');
    expect(await screen.findByRole('heading', { name: 'login page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/guarded?tab=2#top');
  });

  it('sends a signed-in user of another role to /login', async () => {
    const { router } = openGuarded(signedIn('rider'), ['admin', 'fleetadmin']);
    expect(await screen.findByRole('heading', { name: 'login page' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends everyone to /login from a route no role may open', async () => {
    openGuarded(signedIn('admin'), []);
    expect(await screen.findByRole('heading', { name: 'login page' })).toBeTruthy();
  });

  it('treats an unknown session (the server failed) as signed out', async () => {
    openGuarded(refusal(500, 'internal_error'), ['rider']);
    expect(await screen.findByRole('heading', { name: 'login page' })).toBeTruthy();
    expect(screen.queryByText('guarded page')).toBeNull();
  });
});
