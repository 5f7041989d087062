import { PUBLIC_SETTINGS_KEYS, settingsSchema, type PublicSettings, type Settings } from '@rideway/contract';
import { isBlockedInDemoMode, validateSettingsSave, type CriticalEdit, type UserType } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { settings } from '../../db/schema';
import { AppError, unwrap } from '../../http/app-error';
import { DEFAULT_SETTINGS } from './defaults';

/** The settings in force: the stored ones over the defaults (a setting added later gets its default). */
export async function getSettings(db: Db | Tx): Promise<Settings> {
  const rows = await db.select().from(settings).where(eq(settings.id, 1)).limit(1);
  const parsed = settingsSchema.partial().safeParse(rows[0]?.value ?? {});
  return { ...DEFAULT_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}

/** Section 6: a critical edit answers demo_mode while AllowCriticalEditsAdmin is false. */
export async function assertNotDemoMode(db: Db | Tx, edit: CriticalEdit): Promise<void> {
  if (isBlockedInDemoMode(edit, await getSettings(db))) throw new AppError('demo_mode');
}

export function publicSettings(all: Settings): PublicSettings {
  return Object.fromEntries(PUBLIC_SETTINGS_KEYS.map((key) => [key, all[key]])) as PublicSettings;
}

/** GET /api/settings: admins read every setting, everyone else the public subset. */
export async function readSettings(ctx: AppContext, usertype: UserType | null): Promise<Settings | PublicSettings> {
  const all = await getSettings(ctx.db);
  return usertype === 'admin' ? all : publicSettings(all);
}

const settingsUpdateSchema = settingsSchema.partial().strict();

/** Section 5 settings save: demo_mode, proper_bonus and proper_driver_radius, then every field typed. */
export async function updateSettings(ctx: AppContext, input: unknown): Promise<Settings> {
  return ctx.db.transaction(async (tx) => {
    const current = await getSettings(tx);
    if (isBlockedInDemoMode('settings:update', current)) throw new AppError('demo_mode');
    const checked = unwrap(validateSettingsSave(input, current));
    const parsed = settingsUpdateSchema.safeParse({ ...(input as object), ...checked });
    if (!parsed.success) throw new AppError('validation_error', parsed.error.issues[0]?.path.join('.'));
    const next: Settings = { ...current, ...parsed.data };
    await tx
      .insert(settings)
      .values({ id: 1, value: next })
      .onConflictDoUpdate({ target: settings.id, set: { value: next } });
    return next;
  });
}

/** Seeds or replaces the stored settings (demo data, tests). */
export async function saveSettings(db: Db | Tx, next: Settings): Promise<void> {
  await db.insert(settings).values({ id: 1, value: next }).onConflictDoUpdate({ target: settings.id, set: { value: next } });
}
