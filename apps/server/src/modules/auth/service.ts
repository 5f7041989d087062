import { MAX_LICENCE_BYTES, type LoginRequest, type RegisterRequest } from '@rideway/contract';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { carTypes } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { decodeImageDataUrl, withStoredFile } from '../../providers/storage';
import { assertContactsFree, findUserByEmail, findUserByReferralId, insertAccount, type UserRow } from '../accounts/accounts';
import { hashPassword, verifyPassword } from '../accounts/passwords';
import { getSettings } from '../settings/service';
import { admit } from './admit';
import { mailLink } from './links';
import { accountKeyOf, addressKeyOf, startSignIn } from './throttle';
import { sessionOrChallenge, type SecondStep, type SignedIn } from './two-factor';
import { isLanguage } from '../messages/render';

export type DriverFields = { carType: string; vehicleNumber: string; vehicleMake: string | null; vehicleModel: string | null };
type Licence = { bytes: Uint8Array; extension: string };

/** Section 5 driver sign-up: a known car type, a vehicle number and the licence image first (checked, not yet stored). */
async function driverFields(ctx: AppContext, fields: RegisterRequest): Promise<{ vehicle: DriverFields; licence: Licence }> {
  const carType = fields.carType?.trim();
  if (!carType) throw new AppError('select_proper', 'carType');
  const known = await ctx.db.select({ name: carTypes.name }).from(carTypes).where(eq(carTypes.name, carType)).limit(1);
  if (known.length === 0) throw new AppError('select_proper', 'carType');
  const vehicleNumber = fields.vehicleNumber?.trim();
  if (!vehicleNumber) throw new AppError('select_proper', 'vehicleNumber');
  const licence = fields.licenseImage ? decodeImageDataUrl(fields.licenseImage, MAX_LICENCE_BYTES) : undefined;
  if (!licence) throw new AppError('select_proper', 'licenseImage');
  return {
    vehicle: { carType, vehicleNumber, vehicleMake: fields.vehicleMake?.trim() || null, vehicleModel: fields.vehicleModel?.trim() || null },
    licence,
  };
}

/**
 * Section 5 registration of a rider or a driver, on checked fields. A driver waits for approval
 * when driver_approval is on. A valid referral id is recorded (signupViaReferral) and pays
 * nothing now: the bonus is paid when the new user's first trip completes (decisions.md, referral
 * bonus; bookings/referral-bonus.ts), so scripted sign-ups earn nothing.
 *
 * Every check runs before the driver's licence image is stored, and a sign-up that fails after
 * storing it (two sign-ups racing for one email) removes it again: a failed request leaves no file.
 */
export async function register(ctx: AppContext, fields: RegisterRequest): Promise<UserRow> {
  const usertype = fields.usertype ?? 'rider';
  const settings = await getSettings(ctx.db);
  const referrer = fields.referralId ? await findUserByReferralId(ctx.db, fields.referralId) : undefined;
  if (fields.referralId && !referrer) throw new AppError('referer_not_found', 'referralId');
  const driver = usertype === 'driver' ? await driverFields(ctx, fields) : undefined;
  await assertContactsFree(ctx.db, { email: fields.email, mobile: fields.mobile });
  const passwordHash = await hashPassword(fields.password);
  const create = (licenseImage: string | null) => ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    const user = await insertAccount(
      tx,
      {
        firstName: fields.firstName,
        lastName: fields.lastName,
        email: fields.email,
        mobile: fields.mobile,
        usertype,
        passwordHash,
        loginType: 'email',
        approved: !(usertype === 'driver' && settings.driver_approval),
        emailVerified: false,
        createdByAdmin: false,
        referralSource: 'signup',
        signupViaReferral: referrer?.id ?? null,
        language: fields.language !== undefined && (await isLanguage(tx, fields.language)) ? fields.language : null,
        ...driver?.vehicle,
        licenseImage,
      },
      now,
    );
    if (settings.email_verify) await mailLink(ctx, tx, user, 'verify');
    return user;
  });
  if (!driver) return create(null);
  return withStoredFile(ctx.storage, { folder: 'licences', ...driver.licence }, create);
}

/**
 * Email and password sign-in. The try takes its place in the throttle's counts before the
 * password is checked (throttle.ts): per account and address, per address over accounts, per
 * account over addresses it never signed in from. A staff member with two-factor sign-in gets a
 * challenge for the second step instead of a session (two-factor.ts).
 */
export async function login(ctx: AppContext, { email, password }: LoginRequest, ip: string): Promise<SignedIn | SecondStep> {
  const attempt = await startSignIn(ctx.db, { account: accountKeyOf(email), address: addressKeyOf(ip) }, ctx.now());
  const user = await findUserByEmail(ctx.db, email);
  if (!user || !(await verifyPassword(user.passwordHash, password))) {
    await attempt.failed();
    throw new AppError('login_error');
  }
  await attempt.succeeded();
  await admit(ctx, user, true);
  // Issue 20 point 5: staff with an authenticator stop here for its code.
  return sessionOrChallenge(ctx, user);
}
