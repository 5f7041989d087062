import type { UserType } from '@rideway/domain';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi, refusal, type ApiAnswer } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { StubScreen } from '../../test/stub-screen';
import { LoginPage } from './LoginPage';

async function signIn(answer: ApiAnswer, entry = '/login') {
  const user = userEvent.setup();
  const calls = fakeApi({ 'POST /api/auth/login': answer, 'GET /api/auth/methods': { status: 200, body: { facebook: false } } });
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '*', element: <StubScreen /> },
    ],
    { initialEntries: [entry] },
  );
  render(<RouterProvider router={router} />, { wrapper: queryWrapper().wrapper });
  await user.type(screen.getByLabelText(/^email/), 'ann@example.com');
  await user.type(screen.getByLabelText(/^password/), 'secret1');
  await user.click(screen.getByRole('button', { name: 'sign_in' }));
  return { router, calls };
}

describe('sign-in lands each role on its home (section 2)', () => {
  it.each([
    ['admin', '/dashboard'],
    ['fleetadmin', '/dashboard'],
    ['driver', '/bookings'],
    ['rider', '/'],
  ] as [UserType, string][])('%s goes to %s', async (usertype, home) => {
    const { router, calls } = await signIn({ status: 200, body: { user: { id: 'u1', usertype } } });
    expect(await screen.findByRole('heading', { name: `screen ${home}` })).toBeTruthy();
    expect(router.state.location.pathname).toBe(home);
    expect(calls.find((call) => call.path === '/api/auth/login')?.body).toEqual({ email: 'ann@example.com', password: 'secret1' });
  });

  it('stays on the login page and shows the refusal\'s key in the form, not in a dialog (issue 17)', async () => {
    const { router } = await signIn(refusal(401, 'login_error'));
    expect((await screen.findByTestId('form-error')).textContent).toBe('login_error');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows a refusal the server ties to the email on the email field', async () => {
    await signIn(refusal(400, 'login_validate_error', 'email'));
    const email = screen.getByLabelText(/^email/);
    expect(await screen.findByText('login_validate_error')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toContain(screen.getByText('login_validate_error').id);
    expect(screen.getByLabelText(/^password/).getAttribute('aria-invalid')).toBe('false');
  });
});

describe('sign-in returns to the page asked for (issue 17)', () => {
  const admin: ApiAnswer = { status: 200, body: { user: { id: 'u1', usertype: 'admin' } } };

  it('goes to ?next= when it is a page of this site the role may open', async () => {
    const { router } = await signIn(admin, `/login?next=${encodeURIComponent('/withdraws?x=1')}`);
    expect(await screen.findByRole('heading', { name: 'screen /withdraws' })).toBeTruthy();
    expect(router.state.location.search).toBe('?x=1');
  });

  it.each(['https://evil.example', '//evil.example/withdraws', '/\\evil.example', 'javascript:alert(1)'])('ignores ?next=%s and goes home', async (next) => {
    const { router } = await signIn(admin, `/login?next=${encodeURIComponent(next)}`);
    expect(await screen.findByRole('heading', { name: 'screen /dashboard' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it("goes home instead of to a page of another role's", async () => {
    const { router } = await signIn({ status: 200, body: { user: { id: 'u1', usertype: 'rider' } } }, '/login?next=%2Fwithdraws');
    expect(await screen.findByRole('heading', { name: 'screen /' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('Google and Apple sign-in buttons (issue 20)', () => {
  const renderLogin = (settings: Record<string, unknown>, methods: Record<string, boolean>, entry = '/login') => {
    fakeApi({ 'GET /api/settings': { status: 200, body: { settings: { appName: 'Rideway', ...settings } } }, 'GET /api/auth/methods': { status: 200, body: { email: true, mobile: false, facebook: false, ...methods } } });
    const router = createMemoryRouter([{ path: '/login', element: <LoginPage /> }], { initialEntries: [entry] });
    render(<RouterProvider router={router} />, { wrapper: queryWrapper().wrapper });
  };

  it('offers each when its setting is on and the server offers it, carrying a same-site next', async () => {
    renderLogin({ GoogleLoginEnabled: true, AppleLoginEnabled: true }, { google: true, apple: true }, '/login?next=%2Fbookings');
    expect((await screen.findByRole('link', { name: 'continue_with_google' })).getAttribute('href')).toBe('/api/auth/google/start?next=%2Fbookings');
    expect(screen.getByRole('link', { name: 'continue_with_apple' }).getAttribute('href')).toBe('/api/auth/apple/start?next=%2Fbookings');
  });

  it('drops a next of another site, and hides a provider the server does not offer', async () => {
    renderLogin({ GoogleLoginEnabled: true, AppleLoginEnabled: true }, { google: true, apple: false }, '/login?next=https%3A%2F%2Fevil.example');
    expect((await screen.findByRole('link', { name: 'continue_with_google' })).getAttribute('href')).toBe('/api/auth/google/start');
    expect(screen.queryByRole('link', { name: 'continue_with_apple' })).toBeNull();
  });

  it('shows a refused social sign-in returned to /login', async () => {
    renderLogin({}, {}, '/login?error=social_email_unverified');
    expect((await screen.findByTestId('arrival')).textContent).toContain('social_email_unverified');
  });
});

describe('two-factor sign-in (issue 20 point 5)', () => {
  it('goes to the second step, keeping ?next=, when the password answers a challenge', async () => {
    const { router } = await signIn({ status: 200, body: { twoFactorRequired: true, challenge: 'c1', enrol: false } }, '/login?next=%2Fwithdraws');
    expect(await screen.findByRole('heading', { name: 'screen /login/2fa' })).toBeTruthy();
    expect(router.state.location.search).toBe('?next=%2Fwithdraws');
  });

  it('asks to enrol first when the operator requires it', async () => {
    const { router } = await signIn({ status: 200, body: { twoFactorRequired: true, challenge: 'c1', enrol: true } });
    expect(await screen.findByRole('heading', { name: 'screen /login/2fa' })).toBeTruthy();
    expect(router.state.location.search).toBe('?enrol=1');
  });
});
