import { randomUUID } from 'node:crypto';
import { referralId, type ReferralSource, type UserType } from '@rideway/domain';
import { and, eq, ne, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { isUniqueViolation } from '../../db/unique-violation';
import { insertFirstVehicle } from './first-vehicle';

export type UserRow = typeof users.$inferSelect;

export type NewAccount = {
  firstName: string;
  /** Issue 19: the language messages reach the user in (a known language code), else the default. */
  language?: string | null;
  lastName: string;
  email: string | null;
  mobile: string | null;
  usertype: UserType;
  passwordHash: string | null;
  loginType: 'email' | 'phone' | 'facebook' | 'google' | 'apple' | null;
  facebookId?: string | null;
  approved: boolean;
  emailVerified: boolean;
  createdByAdmin: boolean;
  referralSource: ReferralSource;
  signupViaReferral?: string | null;
  fleetadmin?: string | null;
  carType?: string | null;
  vehicleMake?: string | null;
  vehicleModel?: string | null;
  vehicleNumber?: string | null;
  otherInfo?: string | null;
  licenseImage?: string | null;
  bankName?: string | null;
  bankCode?: string | null;
  bankAccount?: string | null;
};

/** Section 5: an account's email and mobile must be free (user_exists). */
export async function assertContactsFree(
  db: Db | Tx,
  contacts: { email?: string | null; mobile?: string | null },
  exceptUid?: string,
): Promise<void> {
  const matches = [
    contacts.email ? eq(users.email, contacts.email) : undefined,
    contacts.mobile ? eq(users.mobile, contacts.mobile) : undefined,
  ].filter((condition) => condition !== undefined);
  if (matches.length === 0) return;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(or(...matches), exceptUid ? ne(users.id, exceptUid) : undefined))
    .limit(1);
  if (rows.length > 0) throw new AppError('user_exists');
}

async function freeReferralId(db: Db | Tx, firstName: string, source: ReferralSource): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const candidate = referralId(firstName, source);
    const taken = await db.select({ id: users.id }).from(users).where(eq(users.referralId, candidate)).limit(1);
    if (taken.length === 0) return candidate;
  }
  // 9000 ids per name: past 20 collisions a uuid-based suffix keeps sign-up working.
  return `${referralId(firstName, source)}${randomUUID().slice(0, 4)}`;
}

/** Inserts a new account after the contact check, with a fresh referral id. */
export async function insertAccount(db: Db | Tx, account: NewAccount, now: number): Promise<UserRow> {
  await assertContactsFree(db, account);
  const row: typeof users.$inferInsert = {
    id: randomUUID(),
    firstName: account.firstName,
    lastName: account.lastName,
    email: account.email,
    mobile: account.mobile,
    usertype: account.usertype,
    loginType: account.loginType,
    facebookId: account.facebookId ?? null,
    passwordHash: account.passwordHash,
    emailVerified: account.emailVerified,
    approved: account.approved,
    createdAt: now,
    createdByAdmin: account.createdByAdmin,
    referralId: await freeReferralId(db, account.firstName, account.referralSource),
    signupViaReferral: account.signupViaReferral ?? null,
    fleetadmin: account.fleetadmin ?? null,
    carType: account.carType ?? null,
    vehicleMake: account.vehicleMake ?? null,
    vehicleModel: account.vehicleModel ?? null,
    vehicleNumber: account.vehicleNumber ?? null,
    otherInfo: account.otherInfo ?? null,
    licenseImage: account.licenseImage ?? null,
    bankName: account.bankName ?? null,
    bankCode: account.bankCode ?? null,
    bankAccount: account.bankAccount ?? null,
    language: account.language ?? null,
  };
  // Two sign-ups can draw the same free referral id at once: the later one draws again.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const inserted = await db
      .insert(users)
      .values(row)
      .onConflictDoNothing({ target: users.referralId })
      .returning()
      .catch((error: unknown) => {
        // Two sign-ups racing for one email or mobile both pass the check above: the later one is told so.
        if (violatedConstraint(error) === 'users_email_key' || violatedConstraint(error) === 'users_mobile_key') throw new AppError('user_exists');
        throw error;
      });
    const user = inserted[0];
    if (user) {
      // Issue 20 point 3: the car a driver signs up (or is added) with is its first, active vehicle.
      if (user.usertype === 'driver' && user.carType) await insertFirstVehicle(db, user.id, { approved: user.approved, carType: user.carType, vehicleMake: user.vehicleMake, vehicleModel: user.vehicleModel, vehicleNumber: user.vehicleNumber }, now);
      return user;
    }
    row.referralId = await freeReferralId(db, account.firstName, account.referralSource);
  }
  throw new AppError('reg_error');
}

/** The unique constraint a failed write broke, if that is why it failed. */
function violatedConstraint(error: unknown): string | undefined {
  if (!isUniqueViolation(error)) return undefined;
  const cause = error instanceof Error && 'cause' in error ? error.cause : error;
  return typeof cause === 'object' && cause !== null && 'constraint' in cause && typeof cause.constraint === 'string' ? cause.constraint : undefined;
}

export async function findUser(db: Db | Tx, uid: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.id, uid)).limit(1);
  return rows[0];
}

export async function findUserByEmail(db: Db | Tx, email: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return rows[0];
}

export async function findUserByReferralId(db: Db | Tx, id: string): Promise<UserRow | undefined> {
  const rows = await db.select().from(users).where(eq(users.referralId, id.trim().toLowerCase())).limit(1);
  return rows[0];
}
