import { MAX_LICENCE_BYTES, type LoginRequest, type RegisterRequest } from '@rideway/contract';
import { toMinor } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { carTypes } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { decodeImageDataUrl } from '../../providers/storage';
import { findUserByEmail, findUserByReferralId, insertAccount, type UserRow } from '../accounts/accounts';
import { hashPassword, verifyPassword } from '../accounts/passwords';
import { createSession } from '../accounts/sessions';
import { enqueue } from '../outbox/service';
import { getSettings } from '../settings/service';
import { appendEntry } from '../wallet/ledger';
import { mailLink } from './links';
import { assertNotThrottled, clearFailures, recordFailure } from './throttle';

export type DriverFields = { carType: string; vehicleNumber: string; vehicleMake: string | null; vehicleModel: string | null; licenseImage: string };

/** Section 5 driver sign-up: a known car type, a vehicle number and the licence image first. */
async function driverFields(ctx: AppContext, fields: RegisterRequest): Promise<DriverFields> {
  const carType = fields.carType?.trim();
  if (!carType) throw new AppError('select_proper', 'carType');
  const known = await ctx.db.select({ name: carTypes.name }).from(carTypes).where(eq(carTypes.name, carType)).limit(1);
  if (known.length === 0) throw new AppError('select_proper', 'carType');
  const vehicleNumber = fields.vehicleNumber?.trim();
  if (!vehicleNumber) throw new AppError('select_proper', 'vehicleNumber');
  const image = fields.licenseImage ? decodeImageDataUrl(fields.licenseImage, MAX_LICENCE_BYTES) : undefined;
  if (!image) throw new AppError('select_proper', 'licenseImage');
  return {
    carType,
    vehicleNumber,
    vehicleMake: fields.vehicleMake?.trim() || null,
    vehicleModel: fields.vehicleModel?.trim() || null,
    licenseImage: await ctx.storage.put('licences', image.bytes, image.extension),
  };
}

/**
 * Section 5 registration of a rider or a driver, on checked fields. A driver waits for approval
 * when driver_approval is on. A valid referral id credits the settings' bonus to both the
 * referrer and the new user (decisions.md).
 */
export async function register(ctx: AppContext, fields: RegisterRequest): Promise<UserRow> {
  const usertype = fields.usertype ?? 'rider';
  const settings = await getSettings(ctx.db);
  const referrer = fields.referralId ? await findUserByReferralId(ctx.db, fields.referralId) : undefined;
  if (fields.referralId && !referrer) throw new AppError('referer_not_found', 'referralId');
  const driver = usertype === 'driver' ? await driverFields(ctx, fields) : undefined;
  const passwordHash = await hashPassword(fields.password);
  return ctx.db.transaction(async (tx) => {
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
        ...driver,
      },
      now,
    );
    const bonus = toMinor(settings.bonus);
    if (referrer && bonus > 0) {
      for (const uid of [referrer.id, user.id]) {
        await appendEntry(tx, { uid, type: 'Credit', amountMinor: bonus, txRef: 'ReferralBonus', at: now });
      }
      await enqueue(tx, { channel: 'push', recipient: referrer.id, payload: { title: settings.appName, msg: `${user.firstName} joined with your referral id: your bonus is in your wallet.`, screen: 'wallet' } }, now);
    }
    if (settings.email_verify) await mailLink(ctx, tx, user, 'verify');
    return user;
  });
}

/** Section 4 sign-in rules once the credentials are right: approval, verified email, user type. */
export async function admit(ctx: AppContext, user: UserRow, viaPassword: boolean): Promise<void> {
  if (!['rider', 'driver', 'admin', 'fleetadmin'].includes(user.usertype)) throw new AppError('not_valid_user_type');
  if (!user.approved) throw new AppError('require_approval');
  const settings = await getSettings(ctx.db);
  if (viaPassword && settings.email_verify && !user.emailVerified && user.usertype !== 'admin') {
    await ctx.db.transaction((tx) => mailLink(ctx, tx, user, 'verify'));
    throw new AppError('email_verify_message');
  }
}

/** Email and password sign-in, throttled per account and per address. */
export async function login(ctx: AppContext, { email, password }: LoginRequest, address: string): Promise<{ token: string; user: UserRow }> {
  const key = { account: email, address };
  await assertNotThrottled(ctx.db, key, ctx.now());
  const user = await findUserByEmail(ctx.db, email);
  if (!user || !(await verifyPassword(user.passwordHash, password))) {
    await recordFailure(ctx.db, key, ctx.now());
    throw new AppError('login_error');
  }
  await clearFailures(ctx.db, email);
  await admit(ctx, user, true);
  return { token: await createSession(ctx.db, user.id, ctx.now()), user };
}
