/**
 * Security-critical: the throttles of the sign-in, password-reset and OTP requests.
 *
 * Every count is one row of throttle_counters per key, raised by a single atomic upsert (the
 * database serialises concurrent raises of one key), so parallel requests and several server
 * processes share the same count. A try takes its place in the count before the password is
 * checked: of 150 parallel wrong passwords, only the first 10 reach the hash.
 *
 * Sign-in keys (decisions.md, "Sign-in throttling"):
 * - one account from one address: 10 failed tries per 15 minutes. Only this limit applies to an
 *   address the account has signed in from with its password in the last 30 days;
 * - one address, over distinct accounts it never signed in to: 20 accounts per 15 minutes
 *   (credential stuffing). A made-up email counts like a real one, so the answer never tells
 *   which exist, but it only holds back strangers at that address, never the people who use it;
 * - one account, from addresses it never signed in from: 50 failed tries per 15 minutes (a
 *   spread-out guessing attack). The owner keeps signing in from the places they used before.
 */
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/client';
import { knownSignIns, throttleCounters } from '../../db/schema';
import { AppError } from '../../http/app-error';

export type Limit = { max: number; windowMs: number };

const MINUTES_15 = 15 * 60 * 1000;

export const SIGN_IN_LIMITS = {
  /** Failed tries on one account from one address. */
  pair: { max: 10, windowMs: MINUTES_15 },
  /** Distinct accounts tried and failed from one address (pairs the address never signed in to). */
  address: { max: 20, windowMs: MINUTES_15 },
  /** Failed tries on one account from addresses it never signed in from. */
  account: { max: 50, windowMs: MINUTES_15 },
} as const satisfies Record<string, Limit>;

/** How long a successful password sign-in keeps an address known to the account. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;

/** Password-reset mails: per email asked for (whether or not it has an account), and per address. */
export const RESET_LIMITS = {
  account: { max: 3, windowMs: MINUTES_15 },
  address: { max: 10, windowMs: MINUTES_15 },
} as const satisfies Record<string, Limit>;

/** OTP requests per address (the 3 codes per number and 15 minutes are counted in otp.ts). */
export const OTP_ADDRESS_LIMIT: Limit = { max: 10, windowMs: MINUTES_15 };

type Count = { count: number; endsAt: number };

/** The account part of a key: the email as findUserByEmail matches it. */
export const accountKeyOf = (email: string): string => email.trim().toLowerCase();

/**
 * The address part of a key: an IPv4 address as is, an IPv6 address by its /64 network (one
 * household or phone holds a whole /64, so counting single IPv6 addresses would count nothing).
 */
export function addressKeyOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head = '', tail] = ip.toLowerCase().split('%')[0]?.split('::') ?? [];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/** Raises the key's count by one, starting a new window when the last one ended; answers the count. */
async function raise(db: Db, key: string, limit: Limit, now: number): Promise<Count> {
  const endsAt = now + limit.windowMs;
  const result = await db.execute(sql`
    insert into ${throttleCounters} (key, count, window_ends_at) values (${key}, 1, ${endsAt})
    on conflict (key) do update set
      count = case when ${throttleCounters.windowEndsAt} <= ${now} then 1 else ${throttleCounters.count} + 1 end,
      window_ends_at = case when ${throttleCounters.windowEndsAt} <= ${now} then ${endsAt} else ${throttleCounters.windowEndsAt} end
    returning count, window_ends_at`);
  const row = rowsOf<{ count: number | string; window_ends_at: number | string }>(result)[0];
  return { count: Number(row?.count ?? 1), endsAt: Number(row?.window_ends_at ?? endsAt) };
}

/** Gives back a place a try took in a count (the try turned out to be the account's owner). */
async function giveBack(db: Db, key: string, now: number): Promise<void> {
  await db
    .update(throttleCounters)
    .set({ count: sql`greatest(${throttleCounters.count} - 1, 0)` })
    .where(and(eq(throttleCounters.key, key), gt(throttleCounters.windowEndsAt, now)));
}

async function clear(db: Db, key: string): Promise<void> {
  await db.delete(throttleCounters).where(eq(throttleCounters.key, key));
}

/** Drops the counts whose window ended a while ago: they are never read again. */
async function trim(db: Db, now: number): Promise<void> {
  await db.delete(throttleCounters).where(lt(throttleCounters.windowEndsAt, now - MINUTES_15));
}

const tooMany = (count: Count, now: number): AppError =>
  new AppError('too_many_requests', undefined, { 'retry-after': String(Math.max(1, Math.ceil((count.endsAt - now) / 1000))) });

/** Counts one request against a limit: 429 with Retry-After once the window holds more than `max`. */
export async function countRequest(db: Db, key: string, limit: Limit, now: number): Promise<void> {
  const count = await raise(db, key, limit, now);
  if (count.count > limit.max) throw tooMany(count, now);
}

export type SignInKey = { account: string; address: string };

/** A sign-in try that holds its places in the counts until its password is checked. */
export type SignInAttempt = { succeeded: () => Promise<void>; failed: () => Promise<void> };

async function isKnownAddress(db: Db, key: SignInKey, now: number): Promise<boolean> {
  const rows = await db
    .select({ lastAt: knownSignIns.lastAt })
    .from(knownSignIns)
    .where(and(eq(knownSignIns.accountKey, key.account), eq(knownSignIns.address, key.address), gt(knownSignIns.lastAt, now - KNOWN_ADDRESS_MS)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Takes the try's places in the sign-in counts before the password is checked, or refuses it
 * with 429 and Retry-After. The caller reports the outcome: a success clears the account's
 * failures from this address, gives back the other places and remembers the address.
 */
export async function startSignIn(db: Db, key: SignInKey, now: number): Promise<SignInAttempt> {
  const pairKey = `signin:pair:${key.account}|${key.address}`;
  const addressKey = `signin:address:${key.address}`;
  const accountKey = `signin:account:${key.account}`;
  const known = await isKnownAddress(db, key, now);
  const pair = await raise(db, pairKey, SIGN_IN_LIMITS.pair, now);
  if (pair.count > SIGN_IN_LIMITS.pair.max) throw tooMany(pair, now);
  const taken: string[] = [];
  if (!known) {
    // The address counts each account once per window: on the account's first try from it.
    if (pair.count === 1) {
      const address = await raise(db, addressKey, SIGN_IN_LIMITS.address, now);
      taken.push(addressKey);
      if (address.count > SIGN_IN_LIMITS.address.max) throw tooMany(address, now);
    } else {
      const address = (await db.select().from(throttleCounters).where(and(eq(throttleCounters.key, addressKey), gt(throttleCounters.windowEndsAt, now))))[0];
      if (address && address.count > SIGN_IN_LIMITS.address.max) throw tooMany({ count: address.count, endsAt: address.windowEndsAt }, now);
    }
    const account = await raise(db, accountKey, SIGN_IN_LIMITS.account, now);
    taken.push(accountKey);
    if (account.count > SIGN_IN_LIMITS.account.max) throw tooMany(account, now);
  }
  return {
    async succeeded() {
      await clear(db, pairKey);
      for (const taker of taken) await giveBack(db, taker, now);
      await db
        .insert(knownSignIns)
        .values({ accountKey: key.account, address: key.address, lastAt: now })
        .onConflictDoUpdate({ target: [knownSignIns.accountKey, knownSignIns.address], set: { lastAt: now } });
    },
    async failed() {
      await trim(db, now);
      await db.delete(knownSignIns).where(lt(knownSignIns.lastAt, now - KNOWN_ADDRESS_MS));
    },
  };
}

/** Password-reset requests: per email asked for and per address, the same answer whether or not the email has an account. */
export async function countResetRequest(db: Db, email: string, ip: string, now: number): Promise<void> {
  await countRequest(db, `reset:address:${addressKeyOf(ip)}`, RESET_LIMITS.address, now);
  await countRequest(db, `reset:account:${accountKeyOf(email)}`, RESET_LIMITS.account, now);
}

/** OTP requests per address: bounds how many numbers one address can try. */
export async function countOtpRequest(db: Db, ip: string, now: number): Promise<void> {
  await countRequest(db, `otp:address:${addressKeyOf(ip)}`, OTP_ADDRESS_LIMIT, now);
}
