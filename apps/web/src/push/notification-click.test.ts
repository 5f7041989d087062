import { describe, expect, it, vi } from 'vitest';
import { openTarget, type ClientsLike, type WindowLike } from './notification-click';

const ORIGIN = 'https://rideway.test';

/** A tab of the browser, as the worker's clients.matchAll answers it. */
function tab(url: string, { controlled = true } = {}): WindowLike & { focus: ReturnType<typeof vi.fn>; navigate: ReturnType<typeof vi.fn> } {
  const client = {
    url,
    focus: vi.fn(() => Promise.resolve(client)),
    // A worker may navigate only the tabs it controls; else the browser rejects.
    navigate: vi.fn((to: string) => (controlled ? Promise.resolve({ ...client, url: to }) : Promise.reject(new TypeError('not controlled')))),
  };
  return client;
}

function clients(tabs: WindowLike[]): ClientsLike & { openWindow: ReturnType<typeof vi.fn>; matchAll: ReturnType<typeof vi.fn> } {
  return { matchAll: vi.fn(() => Promise.resolve(tabs)), openWindow: vi.fn(() => Promise.resolve(null)) };
}

describe('a click on a notification (issue 19)', () => {
  it('opens a new window on the target when no tab of the app is open', async () => {
    const all = clients([tab('https://other.example/page')]);
    await openTarget(all, ORIGIN, '/bookings#offers-title');
    expect(all.matchAll).toHaveBeenCalledWith({ type: 'window', includeUncontrolled: true });
    expect(all.openWindow).toHaveBeenCalledWith(`${ORIGIN}/bookings#offers-title`);
  });

  it('focuses an open tab of the app and takes it to the offers screen', async () => {
    const open = tab(`${ORIGIN}/profile`);
    const all = clients([tab('https://other.example/'), open]);
    await openTarget(all, ORIGIN, '/bookings#offers-title');
    expect(open.focus).toHaveBeenCalled();
    expect(open.navigate).toHaveBeenCalledWith(`${ORIGIN}/bookings#offers-title`);
    expect(all.openWindow).not.toHaveBeenCalled();
  });

  it('prefers the tab already showing the target and only focuses it', async () => {
    const other = tab(`${ORIGIN}/profile`);
    const showing = tab(`${ORIGIN}/bookings/bk-1`);
    const all = clients([other, showing]);
    await openTarget(all, ORIGIN, '/bookings/bk-1');
    expect(showing.focus).toHaveBeenCalled();
    expect(showing.navigate).not.toHaveBeenCalled();
    expect(other.focus).not.toHaveBeenCalled();
    expect(all.openWindow).not.toHaveBeenCalled();
  });

  it('opens a window when the open tab cannot be navigated by the worker', async () => {
    const uncontrolled = tab(`${ORIGIN}/`, { controlled: false });
    const all = clients([uncontrolled]);
    await openTarget(all, ORIGIN, '/bookings/bk-2');
    expect(all.openWindow).toHaveBeenCalledWith(`${ORIGIN}/bookings/bk-2`);
  });

  it('opens a window when navigate answers no client', async () => {
    const open = tab(`${ORIGIN}/`);
    open.navigate.mockResolvedValueOnce(null);
    const all = clients([open]);
    await openTarget(all, ORIGIN, '/profile');
    expect(all.openWindow).toHaveBeenCalledWith(`${ORIGIN}/profile`);
  });

  it('never leaves the site, whatever path it is given', async () => {
    const all = clients([]);
    await openTarget(all, ORIGIN, '//evil.example/phish');
    expect(all.openWindow).toHaveBeenCalledWith(`${ORIGIN}/`);
  });
});
