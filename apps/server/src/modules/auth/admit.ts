import type { AppContext } from '../../context';
import { AppError } from '../../http/app-error';
import type { UserRow } from '../accounts/accounts';
import { getSettings } from '../settings/service';
import { mailLink } from './links';

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
