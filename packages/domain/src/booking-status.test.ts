import { describe, expect, it } from 'vitest';
import {
  ACTIVE_BOOKING_STATUSES,
  BOOKING_STATUSES,
  canShowAssignDriver,
  canShowCancel,
  canShowPayNow,
  cancelNeedsReasonDialog,
  initialBookingStatus,
  isActiveStatus,
  isBookLaterLeadMet,
  isEarningStatus,
  isLiveTrackedStatus,
  isUserType,
  USER_TYPES,
} from './booking-status';

describe('section 4: booking statuses', () => {
  it('has the ten statuses in order', () => {
    expect(BOOKING_STATUSES).toEqual([
      'PAYMENT_PENDING', 'NEW', 'ACCEPTED', 'ARRIVED', 'STARTED', 'REACHED', 'PENDING', 'PAID', 'COMPLETE', 'CANCELLED',
    ]);
  });

  it('counts every status but COMPLETE and CANCELLED as active', () => {
    expect(ACTIVE_BOOKING_STATUSES).toHaveLength(8);
    for (const status of BOOKING_STATUSES) {
      expect(isActiveStatus(status)).toBe(status !== 'COMPLETE' && status !== 'CANCELLED');
    }
  });

  it('tracks a driver live in ACCEPTED, ARRIVED or STARTED', () => {
    expect(BOOKING_STATUSES.filter(isLiveTrackedStatus)).toEqual(['ACCEPTED', 'ARRIVED', 'STARTED']);
  });

  it('counts earnings only in PAID and COMPLETE', () => {
    expect(BOOKING_STATUSES.filter(isEarningStatus)).toEqual(['PAID', 'COMPLETE']);
  });
});

describe('section 4 creation: NEW for taxi or admin-made, else PAYMENT_PENDING', () => {
  it.each([
    ['taxi', false, 'NEW'],
    ['taxi', true, 'NEW'],
    ['delivery', true, 'NEW'],
    ['delivery', false, 'PAYMENT_PENDING'],
  ] as const)('%s, admin-made %s -> %s', (category, admin, status) => {
    expect(initialBookingStatus(category, admin)).toBe(status);
  });
});

describe('section 9: book later needs at least 15 minutes of lead', () => {
  const now = Date.parse('2026-11-22T10:00:00Z');
  it('accepts exactly 15 minutes and more', () => {
    expect(isBookLaterLeadMet(now + 15 * 60_000, now)).toBe(true);
    expect(isBookLaterLeadMet(now + 3600_000, now)).toBe(true);
  });
  it('refuses less than 15 minutes and the past', () => {
    expect(isBookLaterLeadMet(now + 15 * 60_000 - 1, now)).toBe(false);
    expect(isBookLaterLeadMet(now - 1, now)).toBe(false);
  });
});

describe('section 4: the booking list actions', () => {
  it('enables cancel only for NEW, ACCEPTED or PAYMENT_PENDING, for riders and admins', () => {
    for (const usertype of USER_TYPES) {
      for (const status of BOOKING_STATUSES) {
        const expected = (usertype === 'rider' || usertype === 'admin') && ['NEW', 'ACCEPTED', 'PAYMENT_PENDING'].includes(status);
        expect(canShowCancel(status, usertype)).toBe(expected);
      }
    }
  });

  it('asks for a reason for NEW or ACCEPTED; PAYMENT_PENDING cancels after a delay with a fixed reason', () => {
    expect(cancelNeedsReasonDialog('NEW')).toBe(true);
    expect(cancelNeedsReasonDialog('ACCEPTED')).toBe(true);
    expect(cancelNeedsReasonDialog('PAYMENT_PENDING')).toBe(false);
  });

  it('enables assign driver only for NEW, an admin, autoDispatch off', () => {
    expect(canShowAssignDriver('NEW', 'admin', false)).toBe(true);
    expect(canShowAssignDriver('NEW', 'admin', true)).toBe(false);
    expect(canShowAssignDriver('ACCEPTED', 'admin', false)).toBe(false);
    expect(canShowAssignDriver('NEW', 'fleetadmin', false)).toBe(false);
  });

  it('enables pay now only for PENDING and a rider', () => {
    for (const status of BOOKING_STATUSES) {
      for (const usertype of USER_TYPES) {
        expect(canShowPayNow(status, usertype)).toBe(status === 'PENDING' && usertype === 'rider');
      }
    }
  });

  it('knows the four user types', () => {
    expect(isUserType('fleetadmin')).toBe(true);
    expect(isUserType('superuser')).toBe(false);
    expect(isUserType(1)).toBe(false);
  });
});
