import { describe, expect, it } from 'vitest';
import { daysBetween, documentProblems, isAcceptableExpiry, isCalendarDate, isExpired, mayGoOnline, reminderDue, todayIn, type DocumentState } from './driver-documents';

const CAR = 'car-1';
const doc = (kind: DocumentState['kind'], status: DocumentState['status'], expiresOn = '2030-01-01', createdAt = 1, vehicleId: string | null = kind === 'registration' || kind === 'insurance' ? CAR : null): DocumentState => ({ kind, status, expiresOn, createdAt, vehicleId });
const allApproved = (): DocumentState[] => (['licence_front', 'licence_back', 'id', 'registration', 'insurance'] as const).map((kind) => doc(kind, 'approved'));

describe('driver documents', () => {
  it('reads calendar days strictly', () => {
    expect(isCalendarDate('2027-02-28')).toBe(true);
    expect(isCalendarDate('2027-02-30')).toBe(false);
    expect(isCalendarDate('2027-2-3')).toBe(false);
    expect(daysBetween('2026-11-22', '2026-12-22')).toBe(30);
  });

  it("takes today in the operator's time zone", () => {
    const at = Date.UTC(2026, 10, 22, 23, 30);
    expect(todayIn(at, 'UTC')).toBe('2026-11-22');
    expect(todayIn(at, 'Asia/Tokyo')).toBe('2026-11-23');
    expect(todayIn(at, 'America/New_York')).toBe('2026-11-22');
  });

  it('counts a document valid through its expiry day', () => {
    expect(isExpired('2026-11-22', '2026-11-22')).toBe(false);
    expect(isExpired('2026-11-21', '2026-11-22')).toBe(true);
  });

  it('accepts expiry dates from today to 30 years ahead', () => {
    expect(isAcceptableExpiry('2026-11-22', '2026-11-22')).toBe(true);
    expect(isAcceptableExpiry('2026-11-21', '2026-11-22')).toBe(false);
    expect(isAcceptableExpiry('2205-01-01', '2026-11-22')).toBe(false);
    expect(isAcceptableExpiry('not a date', '2026-11-22')).toBe(false);
  });

  it('lists every required kind missing for a new driver', () => {
    expect(documentProblems([], '2026-11-22', CAR).map((p) => p.problem)).toEqual(['missing', 'missing', 'missing', 'missing', 'missing']);
    expect(mayGoOnline([], '2026-11-22', true, CAR)).toBe(false);
    expect(mayGoOnline([], '2026-11-22', false, CAR)).toBe(true);
  });

  it('lets a driver with every kind approved and in date go online', () => {
    expect(documentProblems(allApproved(), '2026-11-22', CAR)).toEqual([]);
    expect(mayGoOnline(allApproved(), '2026-11-22', true, CAR)).toBe(true);
  });

  it('names pending, rejected and expired documents', () => {
    const docs = allApproved().filter((d) => d.kind === 'licence_front' || d.kind === 'licence_back');
    docs.push(doc('id', 'pending'), doc('registration', 'rejected'), doc('insurance', 'approved', '2026-11-21'));
    expect(documentProblems(docs, '2026-11-22', CAR)).toEqual([
      { kind: 'id', problem: 'pending' },
      { kind: 'registration', problem: 'rejected', vehicleId: CAR },
      { kind: 'insurance', problem: 'expired', vehicleId: CAR },
    ]);
  });

  it('keeps a driver online on an approved document while its renewal is reviewed', () => {
    const docs = allApproved();
    docs.push(doc('insurance', 'pending', '2031-01-01', 5));
    expect(documentProblems(docs, '2026-11-22', CAR)).toEqual([]);
  });

  it('names the newest upload when none counts', () => {
    const docs = allApproved().filter((d) => d.kind !== 'insurance');
    docs.push(doc('insurance', 'approved', '2026-01-01', 1), doc('insurance', 'pending', '2031-01-01', 2));
    expect(documentProblems(docs, '2026-11-22', CAR)).toEqual([{ kind: 'insurance', problem: 'pending', vehicleId: CAR }]);
  });

  it("asks for the active vehicle's registration and insurance, not another vehicle's", () => {
    const other = 'car-2';
    // The active car's insurance expired; the other car's is valid: that does not count.
    const docs = allApproved().filter((d) => d.kind !== 'insurance');
    docs.push(doc('insurance', 'approved', '2026-11-21', 1, CAR), doc('insurance', 'approved', '2031-01-01', 2, other), doc('registration', 'approved', '2031-01-01', 2, other));
    expect(documentProblems(docs, '2026-11-22', CAR)).toEqual([{ kind: 'insurance', problem: 'expired', vehicleId: CAR }]);
    expect(mayGoOnline(docs, '2026-11-22', true, CAR)).toBe(false);
    // Switched to the other car: its papers are in order.
    expect(documentProblems(docs, '2026-11-22', other)).toEqual([]);
    // A third car with no papers: both missing, naming it.
    expect(documentProblems(docs, '2026-11-22', 'car-3')).toEqual([
      { kind: 'registration', problem: 'missing', vehicleId: 'car-3' },
      { kind: 'insurance', problem: 'missing', vehicleId: 'car-3' },
    ]);
    // A registration without a vehicle (none to attach it to) counts for no car.
    expect(documentProblems([doc('registration', 'approved', '2031-01-01', 1, null)], '2026-11-22', CAR).map((p) => p.kind)).toContain('registration');
  });

  it('asks only for the driver\'s own papers when it has no active vehicle (the vehicle rule says why)', () => {
    expect(documentProblems([], '2026-11-22', null).map((p) => p.kind)).toEqual(['licence_front', 'licence_back', 'id']);
    expect(documentProblems(allApproved(), '2026-11-22', null)).toEqual([]);
  });

  it('sends the 30-day then the 7-day reminder, each once', () => {
    const none = new Set<30 | 7>();
    expect(reminderDue('2026-12-31', '2026-11-22', none)).toBeUndefined();
    expect(reminderDue('2026-12-22', '2026-11-22', none)).toBe(30);
    expect(reminderDue('2026-12-22', '2026-11-22', new Set([30]))).toBeUndefined();
    expect(reminderDue('2026-11-29', '2026-11-22', new Set([30]))).toBe(7);
    expect(reminderDue('2026-11-29', '2026-11-22', new Set([30, 7]))).toBeUndefined();
    // Found late: only the 7-day reminder, and no 30-day one after it.
    expect(reminderDue('2026-11-25', '2026-11-22', none)).toBe(7);
    expect(reminderDue('2026-11-25', '2026-11-22', new Set([7]))).toBeUndefined();
    expect(reminderDue('2026-11-21', '2026-11-22', none)).toBeUndefined();
  });
});
