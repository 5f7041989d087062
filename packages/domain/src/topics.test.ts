import { describe, expect, it } from 'vitest';
import type { BookingOwnership, Viewer } from './permissions';
import { canSubscribe, canViewTracking, isChatOpen, isChatParty, parseTopic, topicName } from './topics';

const rider: Viewer = { uid: 'r1', usertype: 'rider' };
const otherRider: Viewer = { uid: 'r2', usertype: 'rider' };
const driver: Viewer = { uid: 'd1', usertype: 'driver' };
const offeredDriver: Viewer = { uid: 'd2', usertype: 'driver' };
const strangerDriver: Viewer = { uid: 'd3', usertype: 'driver' };
const fleet: Viewer = { uid: 'f1', usertype: 'fleetadmin' };
const otherFleet: Viewer = { uid: 'f2', usertype: 'fleetadmin' };
const admin: Viewer = { uid: 'a1', usertype: 'admin' };
const trip: BookingOwnership = { status: 'ACCEPTED', customer: 'r1', driver: 'd1', fleetadmin: 'f1' };
const offer: BookingOwnership = { status: 'NEW', customer: 'r1', driver: null, requestedDrivers: { d2: true } };

describe('API.md realtime topics: names', () => {
  it('parses each topic and names it back', () => {
    for (const name of ['booking:abc-1', 'tracking:abc-1', 'chat:abc-1', 'drivers:live', 'user:u9']) {
      const topic = parseTopic(name, 'me');
      expect(topic && topicName(topic)).toBe(name);
    }
  });
  it('reads user:me as the caller', () => {
    expect(parseTopic('user:me', 'u1')).toEqual({ kind: 'user', uid: 'u1' });
  });
  it.each([undefined, 42, '', 'booking:', 'booking:a b', 'wallet:1', 'x'.repeat(81), 'booking:../etc'])('refuses %s', (name) => {
    expect(parseTopic(name, 'me')).toBeUndefined();
  });
});

describe('issue 5: each topic is authorized on subscribe', () => {
  it('a rider follows its own booking, its tracking and its chat, not another rider', () => {
    for (const kind of ['booking', 'tracking', 'chat'] as const) {
      expect(canSubscribe(rider, { kind, bookingId: 'b' }, trip)).toBe(true);
      expect(canSubscribe(otherRider, { kind, bookingId: 'b' }, trip)).toBe(false);
    }
  });
  it('a driver follows its trip and the offer made to it, never another driver\'s', () => {
    expect(canSubscribe(driver, { kind: 'booking', bookingId: 'b' }, trip)).toBe(true);
    expect(canSubscribe(offeredDriver, { kind: 'booking', bookingId: 'b' }, offer)).toBe(true);
    expect(canSubscribe(strangerDriver, { kind: 'booking', bookingId: 'b' }, offer)).toBe(false);
    expect(canSubscribe(offeredDriver, { kind: 'chat', bookingId: 'b' }, offer)).toBe(false);
    expect(canSubscribe(offeredDriver, { kind: 'tracking', bookingId: 'b' }, offer)).toBe(false);
  });
  it('a fleet admin follows its drivers\' trips and the live map; chat stays between the parties', () => {
    expect(canSubscribe(fleet, { kind: 'booking', bookingId: 'b' }, trip)).toBe(true);
    expect(canSubscribe(fleet, { kind: 'tracking', bookingId: 'b' }, trip)).toBe(true);
    expect(canSubscribe(fleet, { kind: 'chat', bookingId: 'b' }, trip)).toBe(false);
    expect(canSubscribe(otherFleet, { kind: 'booking', bookingId: 'b' }, trip)).toBe(false);
    expect(canSubscribe(fleet, { kind: 'drivers:live' })).toBe(true);
  });
  it('an admin follows everything but chat', () => {
    expect(canSubscribe(admin, { kind: 'booking', bookingId: 'b' }, trip)).toBe(true);
    expect(canSubscribe(admin, { kind: 'tracking', bookingId: 'b' }, trip)).toBe(true);
    expect(canSubscribe(admin, { kind: 'drivers:live' })).toBe(true);
    expect(canSubscribe(admin, { kind: 'chat', bookingId: 'b' }, trip)).toBe(false);
  });
  it('riders and drivers do not see the live driver map', () => {
    expect(canSubscribe(rider, { kind: 'drivers:live' })).toBe(false);
    expect(canSubscribe(driver, { kind: 'drivers:live' })).toBe(false);
  });
  it('a user topic is its owner\'s alone, admins included', () => {
    expect(canSubscribe(rider, { kind: 'user', uid: 'r1' })).toBe(true);
    expect(canSubscribe(admin, { kind: 'user', uid: 'r1' })).toBe(false);
  });
  it('a missing booking refuses like a stranger\'s', () => {
    expect(canSubscribe(admin, { kind: 'booking', bookingId: 'b' }, undefined)).toBe(false);
  });
});

describe('section 3 chat and section 4 tracking: parties', () => {
  it('chat is the rider and the assigned driver', () => {
    expect(isChatParty(rider, trip)).toBe(true);
    expect(isChatParty(driver, trip)).toBe(true);
    expect(isChatParty({ uid: 'r1', usertype: 'driver' }, trip)).toBe(false);
    expect(isChatParty(driver, { ...trip, driver: null })).toBe(false);
  });
  it('chat is open from ACCEPTED until the trip is paid', () => {
    expect(isChatOpen('ACCEPTED')).toBe(true);
    expect(isChatOpen('PAID')).toBe(true);
    expect(isChatOpen('NEW')).toBe(false);
    expect(isChatOpen('COMPLETE')).toBe(false);
    expect(isChatOpen('CANCELLED')).toBe(false);
  });
  it('tracking shows to the parties, their fleet admin and admins', () => {
    expect(canViewTracking(rider, trip)).toBe(true);
    expect(canViewTracking(driver, trip)).toBe(true);
    expect(canViewTracking(fleet, trip)).toBe(true);
    expect(canViewTracking(admin, trip)).toBe(true);
    expect(canViewTracking(otherRider, trip)).toBe(false);
    expect(canViewTracking(otherFleet, trip)).toBe(false);
    expect(canViewTracking(strangerDriver, { ...trip, driver: null })).toBe(false);
  });
});
