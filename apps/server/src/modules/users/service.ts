import {
  canManageUser,
  fieldOf,
  maskContactForDemo,
  isStandardEmail,
  userTypesAddableBy,
  validateMobile,
  validateName,
  validatePassword,
  validateProfileUpdate,
  type UserType,
} from '@rideway/domain';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { addUserRequestSchema, editUserRequestSchema } from '@rideway/contract';
import type { AppContext } from '../../context';
import { syncDriver } from '../presence/service';
import type { Db, Tx } from '../../db/client';
import { carTypes, savedAddresses, users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError, unwrap } from '../../http/app-error';
import { parseBody } from '../../http/body';
import { hashPassword } from '../auth/passwords';
import { revokeAllSessions } from '../auth/sessions';
import { assertNotDemoMode, getSettings } from '../settings/service';
import { balanceMinor, balancesMinor } from '../wallet/ledger';
import { assertContactsFree, findUser, insertAccount, type UserRow } from './accounts';
import { toApiUser } from './view';

export async function userView(db: Db | Tx, row: UserRow) {
  const addresses = await db.select().from(savedAddresses).where(eq(savedAddresses.uid, row.id)).orderBy(desc(savedAddresses.count));
  return toApiUser(row, {
    walletBalanceMinor: await balanceMinor(db, row.id),
    savedAddresses: addresses.map(({ description, lat, lng, count }) => ({ description, lat, lng, count })),
  });
}

/** PATCH /api/me with the section 5 profile rules; never a privileged field. */
export async function updateMe(ctx: AppContext, actor: Actor, input: unknown) {
  const current = actor.user;
  const update = unwrap(
    validateProfileUpdate(input, { email: current.email ?? '', mobile: current.mobile ?? '', isEmailLoginUser: current.loginType === 'email' }),
  );
  if (Object.keys(update).length === 0) return userView(ctx.db, current);
  return ctx.db.transaction(async (tx) => {
    await assertContactsFree(tx, { email: update.email, mobile: update.mobile }, actor.uid);
    const emailChanged = update.email !== undefined && update.email !== current.email;
    const rows = await tx
      .update(users)
      .set({ ...update, ...(emailChanged ? { emailVerified: false } : {}) })
      .where(eq(users.id, actor.uid))
      .returning();
    const row = rows[0];
    if (!row) throw new AppError('update_failed');
    return userView(tx, row);
  });
}

const LISTABLE: readonly UserType[] = ['rider', 'driver', 'fleetadmin'];

/**
 * GET /api/users: admins list riders, drivers and fleet admins (never admins, section 5); a
 * fleet admin lists only its own drivers. In demo mode contacts are hidden.
 */
export async function listUsers(ctx: AppContext, actor: Actor, usertype: unknown) {
  const wanted = typeof usertype === 'string' && (LISTABLE as readonly string[]).includes(usertype) ? (usertype as UserType) : undefined;
  if (usertype !== undefined && wanted === undefined) throw new AppError('validation_error', 'usertype');
  const scope =
    actor.usertype === 'fleetadmin'
      ? and(eq(users.usertype, 'driver'), eq(users.fleetadmin, actor.uid))
      : inArray(users.usertype, wanted ? [wanted] : [...LISTABLE]);
  const rows = await ctx.db.select().from(users).where(scope).orderBy(desc(users.createdAt)).limit(1000);
  const balances = await balancesMinor(ctx.db, rows.map((row) => row.id));
  const settings = await getSettings(ctx.db);
  const views = rows.map((row) => toApiUser(row, { walletBalanceMinor: balances.get(row.id) ?? 0 }));
  // Section 6: in demo mode an admin list shows 'Hidden for Demo' and 'Hidden'.
  return views.map((view) => maskContactForDemo(view, settings));
}

async function assertCarType(db: Db | Tx, name: string | undefined): Promise<void> {
  if (name === undefined) return;
  const found = await db.select({ name: carTypes.name }).from(carTypes).where(eq(carTypes.name, name)).limit(1);
  if (found.length === 0) throw new AppError('select_proper', 'carType');
}

async function assertFleetAdmin(db: Db | Tx, uid: string | null | undefined): Promise<void> {
  if (!uid) return;
  const found = await findUser(db, uid);
  if (found?.usertype !== 'fleetadmin') throw new AppError('not_found', 'fleetadmin');
}

/** Section 5 and 6: an admin adds riders, drivers and fleet admins; a fleet admin adds its own drivers. */
export async function addUser(ctx: AppContext, actor: Actor, input: unknown) {
  const firstName = unwrap(validateName(fieldOf(input, 'firstName'), 'firstName'));
  const lastName = unwrap(validateName(fieldOf(input, 'lastName'), 'lastName'));
  const emailValue = fieldOf(input, 'email');
  if (!isStandardEmail(emailValue)) throw new AppError('proper_email', 'email');
  const mobile = unwrap(validateMobile(fieldOf(input, 'mobile')));
  const body = parseBody(addUserRequestSchema, input);
  if (!userTypesAddableBy(actor.usertype).includes(body.usertype)) throw new AppError('forbidden', 'usertype');
  const password = body.password === undefined ? undefined : unwrap(validatePassword(body.password));
  const passwordHash = password ? await hashPassword(password) : null;
  const fleetadmin = actor.usertype === 'fleetadmin' ? actor.uid : body.usertype === 'driver' ? (body.fleetadmin ?? null) : null;
  return ctx.db.transaction(async (tx) => {
    await assertCarType(tx, body.carType);
    await assertFleetAdmin(tx, actor.usertype === 'admin' ? fleetadmin : null);
    const row = await insertAccount(
      tx,
      {
        firstName,
        lastName,
        email: emailValue.trim().toLowerCase(),
        mobile,
        usertype: body.usertype,
        passwordHash,
        loginType: 'email',
        approved: true,
        emailVerified: true,
        createdByAdmin: true,
        referralSource: 'admin',
        fleetadmin,
        carType: body.carType ?? null,
        vehicleNumber: body.vehicleNumber ?? null,
        vehicleMake: body.vehicleMake ?? null,
        vehicleModel: body.vehicleModel ?? null,
        otherInfo: body.other_info ?? null,
      },
      ctx.now(),
    );
    return userView(tx, row);
  });
}

/** The user an admin or fleet admin may manage, or 404: another fleet's driver looks missing. */
async function managedUser(db: Db | Tx, actor: Actor, id: string): Promise<UserRow> {
  const target = await findUser(db, id);
  if (!target || !canManageUser(actor, { uid: target.id, usertype: target.usertype as UserType, fleetadmin: target.fleetadmin })) {
    throw new AppError('not_found');
  }
  return target;
}

/** PATCH /api/users/:id. Approval and fleet membership are an admin's to change. */
export async function editUser(ctx: AppContext, actor: Actor, id: string, input: unknown) {
  // The section 5 checks come first, so these fields answer the spec's keys.
  const set: Partial<typeof users.$inferInsert> = {};
  const firstName = fieldOf(input, 'firstName');
  const lastName = fieldOf(input, 'lastName');
  const email = fieldOf(input, 'email');
  const mobile = fieldOf(input, 'mobile');
  if (firstName !== undefined) set.firstName = unwrap(validateName(firstName, 'firstName'));
  if (lastName !== undefined) set.lastName = unwrap(validateName(lastName, 'lastName'));
  if (email !== undefined) {
    if (!isStandardEmail(email)) throw new AppError('proper_email', 'email');
    set.email = email.trim().toLowerCase();
  }
  if (mobile !== undefined) set.mobile = unwrap(validateMobile(mobile));
  const body = parseBody(editUserRequestSchema, input);
  if (actor.usertype !== 'admin' && (body.approved !== undefined || body.fleetadmin !== undefined)) throw new AppError('forbidden');
  if (body.approved !== undefined) set.approved = body.approved;
  if (body.carType !== undefined) set.carType = body.carType;
  if (body.vehicleNumber !== undefined) set.vehicleNumber = body.vehicleNumber;
  if (body.vehicleMake !== undefined) set.vehicleMake = body.vehicleMake;
  if (body.vehicleModel !== undefined) set.vehicleModel = body.vehicleModel;
  if (body.other_info !== undefined) set.otherInfo = body.other_info;
  if (body.bankName !== undefined) set.bankName = body.bankName;
  if (body.bankCode !== undefined) set.bankCode = body.bankCode;
  if (body.bankAccount !== undefined) set.bankAccount = body.bankAccount;
  const edited = await ctx.db.transaction(async (tx) => {
    const target = await managedUser(tx, actor, id);
    if (target.id === actor.uid && actor.usertype !== 'admin') throw new AppError('not_found');
    if (body.fleetadmin !== undefined) {
      if (target.usertype !== 'driver') throw new AppError('validation_error', 'fleetadmin');
      await assertFleetAdmin(tx, body.fleetadmin);
      set.fleetadmin = body.fleetadmin;
    }
    await assertCarType(tx, body.carType);
    await assertContactsFree(tx, { email: set.email, mobile: set.mobile }, target.id);
    const rows = Object.keys(set).length ? await tx.update(users).set(set).where(eq(users.id, target.id)).returning() : [target];
    const row = rows[0];
    if (!row) throw new AppError('update_failed');
    return userView(tx, row);
  });
  // Approval, car type and fleet decide whether and how a driver is offered trips.
  await syncDriver(ctx, id);
  return edited;
}

/**
 * DELETE /api/users/:id: anyone may delete their own account (and is signed out); admins delete
 * riders, drivers and fleet admins; fleet admins their own drivers. Blocked in demo mode. Every
 * session of the deleted user ends with it.
 */
export async function deleteUser(ctx: AppContext, actor: Actor, id: string): Promise<{ self: boolean }> {
  await assertNotDemoMode(ctx.db, 'user:delete');
  return ctx.db.transaction(async (tx) => {
    const target = id === actor.uid ? actor.user : await managedUser(tx, actor, id);
    await revokeAllSessions(tx, target.id);
    await tx.delete(users).where(eq(users.id, target.id));
    return { self: target.id === actor.uid, uid: target.id };
  }).then(async ({ self, uid }) => {
    await syncDriver(ctx, uid);
    return { self };
  });
}
