import type { AppContext } from '../../context';
import { getSettings } from '../settings/service';

/** Facebook sign-in is on offer when the setting is on and the server holds a Facebook app. */
export async function facebookAvailable(ctx: AppContext): Promise<boolean> {
  if (!ctx.config.FACEBOOK_APP_ID || !ctx.config.FACEBOOK_APP_SECRET) return false;
  return (await getSettings(ctx.db)).FacebookLoginEnabled;
}

/** Section 1: the sign-in methods on offer follow the settings (and, for Facebook, the server's app). */
export async function signInMethods(ctx: AppContext): Promise<{ email: true; mobile: boolean; facebook: boolean }> {
  const settings = await getSettings(ctx.db);
  return { email: true, mobile: settings.MobileLoginEnabled, facebook: await facebookAvailable(ctx) };
}
