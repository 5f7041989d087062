import { canManageUser, type UserType } from '@rideway/domain';
import type { Db, Tx } from '../../db/client';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { findUser, type UserRow } from '../accounts/accounts';

/**
 * Security-critical. The user an admin or fleet admin may manage (and the caller itself), or 404:
 * another fleet's driver, an admin and a deleted account look missing (domain canManageUser).
 */
export async function managedUser(db: Db | Tx, actor: Actor, id: string): Promise<UserRow> {
  const target = await findUser(db, id);
  if (!target || target.deletedAt !== null || !canManageUser(actor, { uid: target.id, usertype: target.usertype as UserType, fleetadmin: target.fleetadmin })) {
    throw new AppError('not_found');
  }
  return target;
}
