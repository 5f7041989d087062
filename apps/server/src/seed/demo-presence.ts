import { and, eq, isNotNull, like } from 'drizzle-orm';
import type { AppContext } from '../context';
import { users } from '../db/schema';
import { driverTimeoutMs, syncDriver } from '../modules/presence/service';

/**
 * The demo drivers have no phone reporting their positions. With demo data on, they stay online
 * where they were seeded, as if their app were open, so a visitor can book at once; a demo driver
 * signed in to the driver app reports for itself, and is then left alone.
 */
export async function keepDemoDriversOnline(ctx: AppContext): Promise<number> {
  const rows = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.usertype, 'driver'), eq(users.driverActiveStatus, true), isNotNull(users.locationLat), like(users.email, '%@rideway.demo')));
  const now = ctx.now();
  let refreshed = 0;
  for (const { id } of rows) {
    let presence = await ctx.live.geo.get(id);
    if (presence && now - presence.at < driverTimeoutMs(ctx) / 2) continue;
    if (!presence) {
      await syncDriver(ctx, id);
      presence = await ctx.live.geo.get(id);
    }
    if (presence) {
      await ctx.live.geo.move(id, { lat: presence.lat, lng: presence.lng, at: now });
      refreshed += 1;
    }
  }
  return refreshed;
}
