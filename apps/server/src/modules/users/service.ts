import type { AddUserRequest, EditUserRequest, User } from '@rideway/contract';
import { canManageUser, maskContactForDemo, userTypesAddableBy, type UserType } from '@rideway/domain';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { carTypes, users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { assertContactsFree, findUser, insertAccount, type UserRow } from '../accounts/accounts';
import { hashPassword } from '../accounts/passwords';
import { revokeAllSessions } from '../accounts/sessions';
import { syncDriver } from '../presence/service';
import { assertNotDemoMode, getSettings } from '../settings/service';
import { balancesMinor } from '../wallet/ledger';
import { toApiUser, userView } from './view';

const LISTABLE: readonly UserType[] = ['rider', 'driver', 'fleetadmin'];

/**
 * GET /api/users: admins list riders, drivers and fleet admins (never admins, section 5); a
 * fleet admin lists only its own drivers. In demo mode contacts are hidden.
 */
export async function listUsers(ctx: AppContext, actor: Actor, usertype: UserType | undefined): Promise<User[]> {
  const scope =
    actor.usertype === 'fleetadmin'
      ? and(eq(users.usertype, 'driver'), eq(users.fleetadmin, actor.uid))
      : inArray(users.usertype, usertype ? [usertype] : [...LISTABLE]);
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
export async function addUser(ctx: AppContext, actor: Actor, body: AddUserRequest): Promise<User> {
  if (!userTypesAddableBy(actor.usertype).includes(body.usertype)) throw new AppError('forbidden', 'usertype');
  const passwordHash = body.password ? await hashPassword(body.password) : null;
  const fleetadmin = actor.usertype === 'fleetadmin' ? actor.uid : body.usertype === 'driver' ? (body.fleetadmin ?? null) : null;
  return ctx.db.transaction(async (tx) => {
    await assertCarType(tx, body.carType);
    await assertFleetAdmin(tx, actor.usertype === 'admin' ? fleetadmin : null);
    const row = await insertAccount(
      tx,
      {
        firstName: body.firstName,
        lastName: body.lastName,
        email: body.email,
        mobile: body.mobile,
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
export async function editUser(ctx: AppContext, actor: Actor, id: string, body: EditUserRequest): Promise<User> {
  const { fleetadmin, other_info: otherInfo, ...fields } = body;
  if (actor.usertype !== 'admin' && (body.approved !== undefined || fleetadmin !== undefined)) throw new AppError('forbidden');
  const set: Partial<typeof users.$inferInsert> = { ...fields, ...(otherInfo === undefined ? {} : { otherInfo }) };
  const edited = await ctx.db.transaction(async (tx) => {
    const target = await managedUser(tx, actor, id);
    if (target.id === actor.uid && actor.usertype !== 'admin') throw new AppError('not_found');
    if (fleetadmin !== undefined) {
      if (target.usertype !== 'driver') throw new AppError('validation_error', 'fleetadmin');
      await assertFleetAdmin(tx, fleetadmin);
      set.fleetadmin = fleetadmin;
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
  const uid = await ctx.db.transaction(async (tx) => {
    const target = id === actor.uid ? actor.user : await managedUser(tx, actor, id);
    await revokeAllSessions(tx, target.id);
    await tx.delete(users).where(eq(users.id, target.id));
    return target.id;
  });
  await syncDriver(ctx, uid);
  return { self: uid === actor.uid };
}
