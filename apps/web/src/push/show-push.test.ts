import { describe, expect, it, vi } from 'vitest';
import { pathOfNotification, showPush, type NotifierLike } from './show-push';

const notifier = () => {
  const showNotification = vi.fn<NotifierLike['showNotification']>(() => Promise.resolve());
  return { showNotification };
};

describe('a push shown as a notification (issue 19)', () => {
  it('shows the offer with the path of the driver\'s offers for the click', async () => {
    const registration = notifier();
    await showPush(registration, () => ({ title: 'Rideway', msg: 'A new trip request is waiting for you.', screen: 'DriverTrips' }));
    expect(registration.showNotification).toHaveBeenCalledWith('Rideway', expect.objectContaining({ body: 'A new trip request is waiting for you.', data: { path: '/bookings#offers-title' }, icon: '/icons/icon-192.png' }));
    expect(registration.showNotification.mock.calls[0]?.[1]).not.toHaveProperty('tag');
  });

  it('tags a booking\'s notice so a newer one replaces it, and opens that booking', async () => {
    const registration = notifier();
    await showPush(registration, () => ({ title: 'Rideway', msg: 'Your driver has arrived at the pickup.', screen: 'BookedCab', params: { bookingId: 'bk-9' } }));
    expect(registration.showNotification).toHaveBeenCalledWith('Rideway', expect.objectContaining({ body: 'Your driver has arrived at the pickup.', data: { path: '/bookings/bk-9' }, tag: 'BookedCab:bk-9' }));
  });

  it('still shows the app\'s name for a push that is not a message (each push must show something)', async () => {
    const registration = notifier();
    await showPush(registration, () => { throw new SyntaxError('not JSON'); });
    await showPush(registration, () => ({ unexpected: true }));
    expect(registration.showNotification.mock.calls.map(([title, options]) => [title, options.body, options.data])).toEqual([
      ['Rideway', '', { path: '/bookings' }],
      ['Rideway', '', { path: '/bookings' }],
    ]);
  });

  it('reads the click\'s path from the notification, with the booking list for anything else', () => {
    expect(pathOfNotification({ path: '/profile' })).toBe('/profile');
    for (const data of [null, undefined, 'x', { path: 5 }]) expect(pathOfNotification(data)).toBe('/bookings');
  });
});
