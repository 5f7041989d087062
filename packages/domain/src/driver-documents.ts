/**
 * Issue 20 point 3: a driver's documents (licence front and back, an ID, and each vehicle's
 * registration and insurance), each with an expiry date, and whether they let the driver go
 * online. Dates are calendar days (YYYY-MM-DD) in the operator's time zone (settings.timezone): a
 * document is valid through its expiry day and expired from the next day on.
 */
import { wallClockIn } from './dates';

export const DOCUMENT_KINDS = ['licence_front', 'licence_back', 'id', 'registration', 'insurance'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export const isDocumentKind = (value: string): value is DocumentKind => (DOCUMENT_KINDS as readonly string[]).includes(value);

/** The driver's own papers: one set whatever it drives. */
export const DRIVER_DOCUMENT_KINDS = ['licence_front', 'licence_back', 'id'] as const satisfies readonly DocumentKind[];
/** A vehicle's papers: each of the driver's vehicles has its own, and only the active one's count. */
export const VEHICLE_DOCUMENT_KINDS = ['registration', 'insurance'] as const satisfies readonly DocumentKind[];
export const isVehicleDocumentKind = (kind: DocumentKind): boolean => (VEHICLE_DOCUMENT_KINDS as readonly DocumentKind[]).includes(kind);

/** Every kind is required to go online when the operator requires documents (the vehicle's of the active vehicle). */
export const REQUIRED_DOCUMENT_KINDS: readonly DocumentKind[] = DOCUMENT_KINDS;

export const DOCUMENT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** Why a required kind does not count: none sent, waiting for review, refused, or out of date. */
export const DOCUMENT_PROBLEMS = ['missing', 'pending', 'rejected', 'expired'] as const;
export type DocumentProblemKind = (typeof DOCUMENT_PROBLEMS)[number];
/** `vehicle`: the driver's active vehicle (vehicles.ts, vehicleProblem) is missing or waits for review. */
export const PROBLEM_SUBJECTS = [...DOCUMENT_KINDS, 'vehicle'] as const;
export type ProblemSubject = (typeof PROBLEM_SUBJECTS)[number];
/** `vehicleId`: the vehicle a registration or insurance problem is about (the active one). */
export type DocumentProblem = { kind: ProblemSubject; problem: DocumentProblemKind; vehicleId?: string };

/**
 * What the rules read of a document. `createdAt` orders a kind's uploads (newest last sent);
 * `vehicleId` is the vehicle a registration or insurance belongs to (none for the driver's own).
 */
export type DocumentState = { kind: DocumentKind; status: DocumentStatus; expiresOn: string; createdAt: number; vehicleId: string | null };

/** Reminders go out this many days before a document's expiry, once each. */
export const DOCUMENT_REMINDER_DAYS = [30, 7] as const;
export type DocumentReminder = (typeof DOCUMENT_REMINDER_DAYS)[number];

/** How far ahead an expiry date may lie (a typo like 2205 is refused). */
export const MAX_DOCUMENT_YEARS_AHEAD = 30;

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const utcOf = (date: string): number | undefined => {
  const match = DATE.exec(date);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = Date.UTC(year, month - 1, day);
  const back = new Date(at);
  // 2027-02-30 is no day: Date.UTC would roll it over to March.
  return back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day ? at : undefined;
};

/** A real calendar day spelled YYYY-MM-DD. */
export const isCalendarDate = (value: string): boolean => utcOf(value) !== undefined;

/** Today's calendar day in a time zone, as YYYY-MM-DD. */
export function todayIn(at: number, timeZone: string): string {
  const { year, month, day } = wallClockIn(at, timeZone);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Whole days from `today` to `date` (negative when past). Both are calendar days. */
export function daysBetween(today: string, date: string): number {
  const from = utcOf(today);
  const to = utcOf(date);
  if (from === undefined || to === undefined) return Number.NaN;
  return Math.round((to - from) / DAY_MS);
}

/** A document is valid through its expiry day. */
export const isExpired = (expiresOn: string, today: string): boolean => daysBetween(today, expiresOn) < 0;

/** An expiry date a driver may send: a real day, not past, at most 30 years ahead. */
export const isAcceptableExpiry = (expiresOn: string, today: string): boolean => {
  const days = daysBetween(today, expiresOn);
  return Number.isFinite(days) && days >= 0 && days <= MAX_DOCUMENT_YEARS_AHEAD * 366;
};

const counts = (doc: DocumentState, today: string): boolean => doc.status === 'approved' && !isExpired(doc.expiresOn, today);

/**
 * What keeps each required kind from counting: the driver's licence (front and back) and ID, and
 * the registration and insurance of the active vehicle (`activeVehicleId`); another vehicle's
 * papers count for nothing until it is made active. Without an active vehicle no vehicle papers
 * are asked for: vehicleProblem (vehicles.ts) already says the driver has no car to drive. A kind
 * counts while any approved document of it is in date, so a driver who sends a renewal early
 * keeps driving while it is reviewed; otherwise the newest upload of the kind says why (pending,
 * rejected, or an approved one now expired).
 */
export function documentProblems(docs: readonly DocumentState[], today: string, activeVehicleId: string | null): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  for (const kind of REQUIRED_DOCUMENT_KINDS) {
    const forVehicle = isVehicleDocumentKind(kind);
    if (forVehicle && activeVehicleId === null) continue;
    const ofKind = docs.filter((doc) => doc.kind === kind && (!forVehicle || doc.vehicleId === activeVehicleId));
    if (ofKind.some((doc) => counts(doc, today))) continue;
    const newest = ofKind.reduce<DocumentState | undefined>((best, doc) => (!best || doc.createdAt > best.createdAt ? doc : best), undefined);
    const about = forVehicle && activeVehicleId !== null ? { vehicleId: activeVehicleId } : {};
    if (!newest) problems.push({ kind, problem: 'missing', ...about });
    else if (newest.status === 'approved' || isExpired(newest.expiresOn, today)) problems.push({ kind, problem: newest.status === 'rejected' ? 'rejected' : 'expired', ...about });
    else problems.push({ kind, problem: newest.status, ...about });
  }
  return problems;
}

/** May the driver go online? Always when the operator does not require documents (RequireDriverDocuments). */
export const mayGoOnline = (docs: readonly DocumentState[], today: string, required: boolean, activeVehicleId: string | null): boolean =>
  !required || documentProblems(docs, today, activeVehicleId).length === 0;

/**
 * The reminder due for an approved document today, if any: the nearest of 30 and 7 days not yet
 * sent once the expiry is that close. A document found first at 5 days gets the 7-day reminder
 * only (the 30-day one would say less and come too late).
 */
export function reminderDue(expiresOn: string, today: string, sent: ReadonlySet<DocumentReminder>): DocumentReminder | undefined {
  const days = daysBetween(today, expiresOn);
  if (!Number.isFinite(days) || days < 0) return undefined;
  const closest = [...DOCUMENT_REMINDER_DAYS].sort((a, b) => a - b).find((limit) => days <= limit);
  return closest !== undefined && !sent.has(closest) && ![...sent].some((done) => done < closest) ? closest : undefined;
}
