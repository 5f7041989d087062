import type { AppContext } from '../../context';
import { getSettings } from '../settings/service';

/** Facebook sign-in is on offer when the setting is on and the server holds a Facebook app. */
export async function facebookAvailable(ctx: AppContext): Promise<boolean> {
  if (!ctx.config.FACEBOOK_APP_ID || !ctx.config.FACEBOOK_APP_SECRET) return false;
  return (await getSettings(ctx.db)).FacebookLoginEnabled;
}

export type SocialProvider = 'google' | 'apple';

/** Issue 20: the server holds that provider's client (Apple's: all four parts of its client secret). */
export function socialConfigured(ctx: AppContext, provider: SocialProvider): boolean {
  const config = ctx.config;
  if (provider === 'google') return Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET);
  return Boolean(config.APPLE_CLIENT_ID && config.APPLE_TEAM_ID && config.APPLE_KEY_ID && config.APPLE_PRIVATE_KEY);
}

/** Google or Apple sign-in is on offer when its setting is on and the server holds its client. */
export async function socialAvailable(ctx: AppContext, provider: SocialProvider): Promise<boolean> {
  if (!socialConfigured(ctx, provider)) return false;
  const settings = await getSettings(ctx.db);
  return provider === 'google' ? settings.GoogleLoginEnabled : settings.AppleLoginEnabled;
}

/** Section 1: the sign-in methods on offer follow the settings (and, for the social ones, the server's clients). */
export async function signInMethods(ctx: AppContext): Promise<{ email: true; mobile: boolean; facebook: boolean; google: boolean; apple: boolean }> {
  const settings = await getSettings(ctx.db);
  return {
    email: true,
    mobile: settings.MobileLoginEnabled,
    facebook: await facebookAvailable(ctx),
    google: await socialAvailable(ctx, 'google'),
    apple: await socialAvailable(ctx, 'apple'),
  };
}
