import type { ProfileUpdateRequest, User } from '@rideway/contract';
import { editableProfileChanges } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { users } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError, unwrap } from '../../http/app-error';
import { assertContactsFree } from '../accounts/accounts';
import { announceSessionsEnded, revokeAllSessions, revokeOtherSessions } from '../accounts/sessions';
import { isLanguage } from '../messages/render';
import { userView } from './view';

/**
 * PATCH /api/me on checked fields, with section 5's rule on who may change email and mobile. A
 * new email or mobile ends every other session of the account (and their sockets): whoever held
 * one signed in with the old contact. The session that made the change stays signed in.
 */
export async function updateMe(ctx: AppContext, actor: Actor, update: ProfileUpdateRequest, session: string | null): Promise<User> {
  const current = actor.user;
  const { language, ...profile } = update;
  const changes = {
    ...unwrap(editableProfileChanges(profile, { email: current.email ?? '', mobile: current.mobile ?? '', isEmailLoginUser: current.loginType === 'email' })),
    // Issue 19: the language the app shows, so messages reach the user in it; only a language the app offers.
    ...(language === undefined || language === current.language ? {} : { language }),
  };
  if (changes.language !== undefined && !(await isLanguage(ctx.db, changes.language))) throw new AppError('update_failed', 'language');
  if (Object.keys(changes).length === 0) return userView(ctx.db, current);
  const emailChanged = changes.email !== undefined && changes.email !== current.email;
  const contactChanged = emailChanged || (changes.mobile !== undefined && changes.mobile !== current.mobile);
  const view = await ctx.db.transaction(async (tx) => {
    await assertContactsFree(tx, { email: changes.email, mobile: changes.mobile }, actor.uid);
    const rows = await tx
      .update(users)
      .set({ ...changes, ...(emailChanged ? { emailVerified: false } : {}) })
      .where(eq(users.id, actor.uid))
      .returning();
    const row = rows[0];
    if (!row) throw new AppError('update_failed');
    if (contactChanged) await (session ? revokeOtherSessions(tx, actor.uid, session) : revokeAllSessions(tx, actor.uid));
    return userView(tx, row);
  });
  if (contactChanged) await announceSessionsEnded(ctx, session ? { uid: actor.uid, except: session } : { uid: actor.uid });
  return view;
}
