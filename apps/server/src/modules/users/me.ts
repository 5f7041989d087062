import type { ProfileUpdateRequest, User } from '@rideway/contract';
import { editableProfileChanges } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError, unwrap } from '../../http/app-error';
import { assertContactsFree } from '../accounts/accounts';
import { userView } from './view';

/** PATCH /api/me on checked fields, with section 5's rule on who may change email and mobile. */
export async function updateMe(ctx: AppContext, actor: Actor, update: ProfileUpdateRequest): Promise<User> {
  const current = actor.user;
  const changes = unwrap(
    editableProfileChanges(update, { email: current.email ?? '', mobile: current.mobile ?? '', isEmailLoginUser: current.loginType === 'email' }),
  );
  if (Object.keys(changes).length === 0) return userView(ctx.db, current);
  return ctx.db.transaction(async (tx) => {
    await assertContactsFree(tx, { email: changes.email, mobile: changes.mobile }, actor.uid);
    const emailChanged = changes.email !== undefined && changes.email !== current.email;
    const rows = await tx
      .update(users)
      .set({ ...changes, ...(emailChanged ? { emailVerified: false } : {}) })
      .where(eq(users.id, actor.uid))
      .returning();
    const row = rows[0];
    if (!row) throw new AppError('update_failed');
    return userView(tx, row);
  });
}
