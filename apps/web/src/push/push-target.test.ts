import { PUSH_SCREENS } from '@rideway/domain';
import { describe, expect, it } from 'vitest';
import { pushTargetPath, readPushPayload } from './push-target';

describe('the screen a push message opens (issue 19, section 2 target screens)', () => {
  it('maps each target screen to its web route', () => {
    expect(pushTargetPath({ screen: 'BookingCab', params: { bookingId: 'bk-1' } })).toBe('/bookings/bk-1');
    expect(pushTargetPath({ screen: 'BookedCab', params: { bookingId: 'bk-2' } })).toBe('/bookings/bk-2');
    expect(pushTargetPath({ screen: 'onlineChat', params: { bookingId: 'bk-3' } })).toBe('/bookings/bk-3#chat-title');
    expect(pushTargetPath({ screen: 'wallet', params: { bookingId: 'bk-4' } })).toBe('/profile');
    expect(pushTargetPath({ screen: 'DriverTrips' })).toBe('/bookings#offers-title');
  });

  it('covers every screen section 2 names', () => {
    for (const screen of PUSH_SCREENS) expect(pushTargetPath({ screen, params: { bookingId: 'x' } })).toMatch(/^\/(bookings|profile)/);
  });

  it('opens the booking list for a message without a screen, or a booking screen without its booking', () => {
    expect(pushTargetPath({})).toBe('/bookings');
    expect(pushTargetPath({ screen: 'BookedCab' })).toBe('/bookings');
    expect(pushTargetPath({ screen: 'onlineChat', params: { bookingId: '' } })).toBe('/bookings');
  });

  it('keeps a hostile booking id inside one path segment of this site', () => {
    expect(pushTargetPath({ screen: 'BookedCab', params: { bookingId: '../../admin?x=1#y' } })).toBe('/bookings/..%2F..%2Fadmin%3Fx%3D1%23y');
    expect(pushTargetPath({ screen: 'BookedCab', params: { bookingId: '//evil.example' } })).toBe('/bookings/%2F%2Fevil.example');
    const url = new URL(pushTargetPath({ screen: 'BookingCab', params: { bookingId: 'https://evil.example/' } }), 'https://app.test');
    expect(url.origin).toBe('https://app.test');
  });
});

describe('reading a push message\'s data', () => {
  it('reads section 7\'s shape', () => {
    expect(readPushPayload({ title: 'Rideway', msg: 'A new trip request is waiting for you.', screen: 'DriverTrips' })).toEqual({ title: 'Rideway', msg: 'A new trip request is waiting for you.', screen: 'DriverTrips' });
    expect(readPushPayload({ title: 'T', msg: 'M', screen: 'BookedCab', params: { bookingId: 'b' } })).toEqual({ title: 'T', msg: 'M', screen: 'BookedCab', params: { bookingId: 'b' } });
  });

  it('leaves out an unknown screen or malformed params, and refuses what is not a message', () => {
    expect(readPushPayload({ title: 'T', msg: 'M', screen: 'javascript:alert(1)', params: { bookingId: 5 } })).toEqual({ title: 'T', msg: 'M' });
    expect(readPushPayload({ title: 'T', msg: 'M', params: ['a'] })).toEqual({ title: 'T', msg: 'M' });
    for (const data of [null, 'text', 42, [], { title: 'T' }, { msg: 'M' }, { title: 1, msg: 'M' }]) expect(readPushPayload(data)).toBeNull();
  });
});
