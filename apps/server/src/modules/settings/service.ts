import { publicSettingsSchema, settingsSchema, type MapTiles, type PublicSettings, type Settings, type SettingsUpdate } from '@rideway/contract';
import { isBlockedInDemoMode, type CriticalEdit, type UserType } from '@rideway/domain';
import { eq } from 'drizzle-orm';
import { recordAudit } from '../../audit/record';
import type { AppContext } from '../../context';
import type { Db, Tx } from '../../db/client';
import { dataChanged, dataWritten, readThrough } from '../../db/read-cache';
import { settings } from '../../db/schema';
import type { Actor } from '../../http/actor';
import { AppError } from '../../http/app-error';
import { DEFAULT_SETTINGS } from './defaults';

const storedSettingsSchema = settingsSchema.partial();

async function loadSettings(db: Db | Tx): Promise<Settings> {
  const rows = await db.select().from(settings).where(eq(settings.id, 1)).limit(1);
  const parsed = storedSettingsSchema.safeParse(rows[0]?.value ?? {});
  return { ...DEFAULT_SETTINGS, ...(parsed.success ? parsed.data : {}) };
}

/**
 * The settings in force: the stored ones over the defaults (a setting added later gets its
 * default). Held in the process until they change (db/read-cache.ts); read with a transaction
 * they come from the database, so a transaction that saved them reads its own.
 */
export async function getSettings(db: Db | Tx): Promise<Settings> {
  // A copy: a caller that changes its settings object changes nobody else's.
  return { ...(await readThrough(db, 'settings', () => loadSettings(db))) };
}

/** Section 6: a critical edit answers demo_mode while AllowCriticalEditsAdmin is false. */
export async function assertNotDemoMode(db: Db | Tx, edit: CriticalEdit): Promise<void> {
  if (isBlockedInDemoMode(edit, await getSettings(db))) throw new AppError('demo_mode');
}

/** Where a failure to get the provider's map tiles is told (the request's logger). */
type WarnLog = { warn: (details: object, message: string) => void };

/**
 * The tiles every web map draws: the maps provider's own where its terms want its results on its
 * map (Google's, with a browser key), else MAP_TILE_URL's; also while the provider's cannot be
 * had, a failure logged and never answered (issue 16).
 */
async function mapTiles(ctx: AppContext, log?: WarnLog): Promise<MapTiles> {
  const configured: MapTiles = { mapTileUrl: ctx.config.MAP_TILE_URL, mapTileAttribution: ctx.config.MAP_TILE_ATTRIBUTION };
  if (!ctx.maps.mapTiles) return configured;
  try {
    const { tiles, failure } = await ctx.maps.mapTiles();
    if (failure) log?.warn({ provider: failure.provider, reason: failure.reason, detail: failure.message }, 'map tiles session failed: the maps draw MAP_TILE_URL');
    return tiles ?? configured;
  } catch (error) {
    log?.warn({ err: error }, 'map tiles session failed: the maps draw MAP_TILE_URL');
    return configured;
  }
}

/** GET /api/settings: admins read every setting, everyone else the public ones (their schema keeps only those). */
export async function readSettings(ctx: AppContext, usertype: UserType | null, log?: WarnLog): Promise<(Settings | PublicSettings) & MapTiles> {
  const [all, tiles] = await Promise.all([getSettings(ctx.db), mapTiles(ctx, log)]);
  return { ...(usertype === 'admin' ? all : publicSettingsSchema.parse(all)), ...tiles };
}

/** Section 5 settings save, on a checked update: refused in demo mode (demo_mode); the settings changed go to the audit log. */
export async function updateSettings(ctx: AppContext, actor: Actor, update: SettingsUpdate): Promise<Settings> {
  try {
    return await ctx.db.transaction(async (tx) => {
      const current = await getSettings(tx);
      if (isBlockedInDemoMode('settings:update', current)) throw new AppError('demo_mode');
      const next: Settings = { ...current, ...update };
      await saveSettings(tx, next);
      await recordAudit(tx, { actor, action: 'settings.update', entityId: 'settings', before: current, after: next, at: ctx.now() });
      return next;
    });
  } finally {
    // The transaction is over: forgotten again, here and in the other processes (a read made
    // before the commit is not kept), and cached again from the next read.
    await dataChanged('settings');
  }
}

/**
 * Seeds or replaces the stored settings (demo data, tests). Outside a transaction the change is
 * announced at once; a caller saving inside a transaction calls dataChanged('settings') once it is
 * over (updateSettings, the demo data), and until then the settings are not cached.
 */
export async function saveSettings(db: Db | Tx, next: Settings): Promise<void> {
  await db.insert(settings).values({ id: 1, value: next }).onConflictDoUpdate({ target: settings.id, set: { value: next } });
  await dataWritten(db, 'settings');
}
