import { USER_SEARCH_LIMIT, type AddUserRequest, type EditUserRequest, type User } from '@rideway/contract';
import { ACTIVE_BOOKING_STATUSES, isAuditedActor, isDemoMode, maskContactForDemo, userTypesAddableBy, type UserType } from '@rideway/domain';
import { and, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import { erasePersonalAudit, recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { authTokens, bookings, carTypes, driverDocuments, idempotencyKeys, outbox, pushSubscriptions, savedAddresses, savedCards, userStatusChanges, users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { deleteStoredFileOf } from '../../providers/storage';
import { assertContactsFree, findUser, insertAccount, type UserRow } from '../accounts/accounts';
import { hashPassword } from '../accounts/passwords';
import { announceSessionsEnded, revokeAllSessions, revokeOtherSessions, type EndedSessions } from '../accounts/sessions';
import { syncDriver } from '../presence/service';
import { assertNotDemoMode, getSettings } from '../settings/service';
import { eraseVehicles, syncActiveVehicle } from '../vehicles/service';
import { balanceMinor, balancesMinor, lockWallet } from '../wallet/ledger';
import { recordStatusChange } from './approval';
import { managedUser } from './managed';
import { userSearchCondition } from './search';
import { toApiUser, userView } from './view';

const LISTABLE: readonly UserType[] = ['rider', 'driver', 'fleetadmin'];

/**
 * GET /api/users: admins list riders, drivers and fleet admins (never admins, section 5); a
 * fleet admin lists only its own drivers; deleted accounts never. In demo mode contacts are hidden.
 * Issue 20 point 6: a search keeps the matches by name, email or mobile, at most USER_SEARCH_LIMIT.
 */
export async function listUsers(ctx: AppContext, actor: Actor, query: { usertype?: UserType | undefined; search?: string | undefined }): Promise<User[]> {
  const { usertype, search } = query;
  const scope =
    actor.usertype === 'fleetadmin'
      ? and(eq(users.usertype, 'driver'), eq(users.fleetadmin, actor.uid))
      : inArray(users.usertype, usertype ? [usertype] : [...LISTABLE]);
  const settings = await getSettings(ctx.db);
  const matching = search ? userSearchCondition(search, { contacts: !isDemoMode(settings) }) : undefined;
  // A deleted (anonymised) account is in no list: it stays only for its bookings and ledger.
  const rows = await ctx.db
    .select()
    .from(users)
    .where(and(scope, isNull(users.deletedAt), matching))
    .orderBy(desc(users.createdAt))
    .limit(matching ? USER_SEARCH_LIMIT : 1000);
  const balances = await balancesMinor(ctx.db, rows.map((row) => row.id));
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
    // Issue 23 point 8: the account as created (its password hash redacted).
    await recordAudit(tx, { actor, action: 'user.create', entityId: row.id, before: null, after: row, at: ctx.now() });
    return userView(tx, row);
  });
}

/**
 * What signs a driver in and where its money goes: an admin's to change, never its fleet admin's
 * (the fleet admin that could set them could reset the password, sign in as the driver and
 * withdraw to its own account).
 */
const ADMIN_ONLY_FIELDS = ['email', 'mobile', 'bankName', 'bankCode', 'bankAccount'] as const;

/**
 * A fleet admin edits its drivers' names and vehicles. A contact or bank field is refused with
 * field_not_editable naming it, approval and fleet with forbidden; sent back unchanged, as forms
 * do, they change nothing and pass.
 */
function assertFleetAdminEdit(target: UserRow, body: EditUserRequest): void {
  if ((body.approved !== undefined && body.approved !== target.approved) || (body.fleetadmin !== undefined && body.fleetadmin !== target.fleetadmin)) {
    throw new AppError('forbidden');
  }
  for (const field of ADMIN_ONLY_FIELDS) {
    const value = body[field];
    if (value !== undefined && value !== (target[field] ?? '')) throw new AppError('field_not_editable', field);
  }
}

/**
 * The sessions an edit ends: all of them when approval is withdrawn or the email or mobile
 * changes (whoever signed in with the old contact is out), but the editor's own current session
 * when an admin changed its own contact.
 */
function sessionsEndedBy(actor: Actor, target: UserRow, set: Partial<typeof users.$inferInsert>, session: string | null): EndedSessions | null {
  const contactChanged = (set.email !== undefined && set.email !== target.email) || (set.mobile !== undefined && set.mobile !== target.mobile);
  if (set.approved === false) return { uid: target.id };
  if (!contactChanged) return null;
  return target.id === actor.uid && session ? { uid: target.id, except: session } : { uid: target.id };
}

/**
 * PATCH /api/users/:id. Approval, fleet membership, contacts and bank details are an admin's to
 * change. Withdrawing approval or changing the email or mobile ends the user's sessions and closes
 * their sockets.
 */
export async function editUser(ctx: AppContext, actor: Actor, id: string, body: EditUserRequest, session: string | null): Promise<User> {
  const { fleetadmin, other_info: otherInfo, ...fields } = body;
  const set: Partial<typeof users.$inferInsert> = { ...fields, ...(otherInfo === undefined ? {} : { otherInfo }) };
  // Issue 20 point 6: an account whose approval is withdrawn is offline, as after POST /api/users/:id/approval.
  if (set.approved === false) set.driverActiveStatus = false;
  const { view, ended } = await ctx.db.transaction(async (tx) => {
    const managed = await managedUser(tx, actor, id);
    if (managed.id === actor.uid && actor.usertype !== 'admin') throw new AppError('not_found');
    // Locked for the edit, so the audit's "before" is what this edit changed (issue 23 point 8).
    const target = (await tx.select().from(users).where(eq(users.id, managed.id)).for('update'))[0] ?? managed;
    if (actor.usertype !== 'admin') assertFleetAdminEdit(target, body);
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
    // The active vehicle follows an admin's edit of the driver's car (issue 20 point 3).
    if (row.usertype === 'driver') await syncActiveVehicle(tx, row.id, { now: ctx.now(), by: actor.uid, byAdmin: actor.usertype === 'admin' });
    // Issue 20 point 6: an approval changed in the table joins the user's history (without a reason; the detail page asks for one).
    if (set.approved !== undefined && set.approved !== target.approved) await recordStatusChange(tx, { uid: row.id, approved: set.approved, reason: null, by: actor.uid, at: ctx.now() });
    await recordAudit(tx, { actor, action: 'user.update', entityId: row.id, before: target, after: row, at: ctx.now() });
    const endedSessions = sessionsEndedBy(actor, target, set, session);
    if (endedSessions?.except !== undefined) await revokeOtherSessions(tx, target.id, endedSessions.except);
    else if (endedSessions) await revokeAllSessions(tx, target.id);
    return { view: await userView(tx, row), ended: endedSessions };
  });
  if (ended) await announceSessionsEnded(ctx, ended);
  // Approval, car type and fleet decide whether and how a driver is offered trips.
  await syncDriver(ctx, id);
  return view;
}

/**
 * Why an account cannot go yet (decisions.md, "Account privacy"): a trip in progress (any status
 * before the end but PAID, which only waits for an optional rating) would lose its rider or
 * driver, and money owed to the operator (a negative wallet balance) would be written off.
 */
async function assertDeletable(tx: Tx, uid: string): Promise<void> {
  const inProgress = ACTIVE_BOOKING_STATUSES.filter((status) => status !== 'PAID');
  const active = await tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(or(eq(bookings.customer, uid), eq(bookings.driver, uid)), inArray(bookings.status, inProgress)))
    .limit(1);
  if (active.length > 0) throw new AppError('account_has_active_trip');
  if ((await balanceMinor(tx, uid)) < 0) throw new AppError('account_owes_money');
}

/**
 * Security-critical. DELETE /api/users/:id: anyone may delete their own account (and is signed
 * out); admins delete riders, drivers and fleet admins; fleet admins their own drivers. Blocked
 * in demo mode, and while a trip is in progress or the wallet owes money.
 *
 * Deleting anonymises (decisions.md, "Account privacy"): the row stays, so the bookings, ledger
 * entries and withdraws that name it stay for the books and the reports, but everything personal
 * goes: names become "Deleted user"; email, mobile, every sign-in (password, Facebook, Google,
 * Apple), photo, licence, bank details, push tokens and devices, saved places and cards, pending
 * links, sessions and notifications are erased, and the email and mobile are free to sign up
 * again. `deleted_at` marks the row: no list shows it and no sign-in finds it. Its files go
 * after the commit.
 */
export async function deleteUser(ctx: AppContext, actor: Actor, id: string): Promise<{ self: boolean }> {
  await assertNotDemoMode(ctx.db, 'user:delete');
  const { uid, files } = await ctx.db.transaction(async (tx) => {
    const target = id === actor.uid ? actor.user : await managedUser(tx, actor, id);
    // The wallet lock also serialises this with a payment or withdraw racing the deletion.
    await lockWallet(tx, target.id);
    const current = await findUser(tx, target.id);
    if (!current || current.deletedAt !== null) throw new AppError('not_found');
    await assertDeletable(tx, target.id);
    await revokeAllSessions(tx, target.id);
    // Issue 20 point 6: the reasons an admin gave for suspending the account are about the person too.
    for (const table of [authTokens, savedAddresses, pushSubscriptions, savedCards, idempotencyKeys, userStatusChanges] as const) {
      await tx.delete(table).where(eq(table.uid, target.id));
    }
    await tx.delete(outbox).where(and(eq(outbox.channel, 'push'), eq(outbox.recipient, target.id)));
    // A deleted fleet admin's drivers stay, managed by the admins.
    await tx.update(users).set({ fleetadmin: null }).where(eq(users.fleetadmin, target.id));
    // Papers and cars name and picture a person: rows and files go (issue 20 point 3).
    const papers = await tx.delete(driverDocuments).where(eq(driverDocuments.uid, target.id)).returning({ image: driverDocuments.image });
    const cars = await eraseVehicles(tx, target.id);
    await tx.update(users).set(anonymised(ctx.now())).where(eq(users.id, target.id));
    // Issue 23 point 8: the log's entries about the account keep no personal data; an admin's or
    // a fleet admin's deletion is an entry of its own (what was deleted stays out of it).
    await erasePersonalAudit(tx, target.id);
    if (isAuditedActor(actor.usertype)) await recordAudit(tx, { actor, action: 'user.delete', entityId: target.id, before: { deletedAt: null }, after: { deletedAt: ctx.now() }, at: ctx.now() });
    return { uid: target.id, files: [current.profileImage, current.licenseImage, ...papers.map((paper) => paper.image), ...cars] };
  });
  await announceSessionsEnded(ctx, { uid });
  await syncDriver(ctx, uid);
  for (const file of files) await deleteStoredFileOf(ctx.storage, file);
  return { self: uid === actor.uid };
}

/** What remains of a deleted account: its id, type and dates; nothing that names or reaches a person. */
function anonymised(now: number): Partial<typeof users.$inferInsert> {
  return {
    firstName: 'Deleted',
    lastName: 'user',
    email: null,
    mobile: null,
    facebookId: null,
    googleId: null,
    appleId: null,
    passwordHash: null,
    emailVerified: false,
    approved: false,
    referralId: null,
    profileImage: null,
    pushToken: null,
    userPlatform: null,
    promoNotifications: false,
    driverActiveStatus: false,
    queue: false,
    locationLat: null,
    locationLng: null,
    locationAt: null,
    vehicleNumber: null,
    otherInfo: null,
    licenseImage: null,
    bankName: null,
    bankCode: null,
    bankAccount: null,
    deletedAt: now,
  };
}
