import { inArray, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { dataChanged } from '../db/read-cache';
import { settings, users } from '../db/schema';
import type { FileStorage } from '../providers/storage';
import { hashPassword } from '../modules/auth/passwords';
import { installLanguages } from '../modules/languages/service';
import { DEFAULT_SETTINGS } from '../modules/settings/defaults';
import { saveSettings } from '../modules/settings/service';
import { insertAccount } from '../modules/users/accounts';
import { seedDemoData, type DemoLogin } from './demo-data';

const DEMO_EMAILS = [
  'admin@rideway.demo',
  'fleet@rideway.demo',
  'driver1@rideway.demo',
  'driver2@rideway.demo',
  'driver3@rideway.demo',
  'driver4@rideway.demo',
  'driver5@rideway.demo',
  'rider1@rideway.demo',
  'rider2@rideway.demo',
];

/** The transaction-scoped advisory lock that readies a database one process at a time (any constant; 'SEED'). */
export const PREPARE_LOCK = 0x53454544;

/**
 * Readies a migrated database: the shipped languages; on an empty database the bootstrap admin
 * (BOOTSTRAP_ADMIN_*) and, unless DEMO_DATA=0, the demo data. Answers the demo logins present.
 * Processes starting together on a new database (the compose file's two) take turns under an
 * advisory lock: the first seeds, the others then find it not empty. Without it both saw no users
 * and the second failed at start on the admin it could not insert twice (issue 23 point 5).
 */
export async function prepareDatabase(db: Db, config: Config, now = Date.now(), storage?: FileStorage): Promise<DemoLogin[]> {
  await installLanguages(db);
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PREPARE_LOCK})`);
    const count = Number((await tx.select({ count: sql<string>`count(*)` }).from(users))[0]?.count ?? 0);
    if (count === 0) {
      if (config.BOOTSTRAP_ADMIN_EMAIL && config.BOOTSTRAP_ADMIN_PASSWORD) {
        await insertAccount(
          tx,
          { firstName: 'Admin', lastName: 'User', email: config.BOOTSTRAP_ADMIN_EMAIL.toLowerCase(), mobile: null, usertype: 'admin', passwordHash: await hashPassword(config.BOOTSTRAP_ADMIN_PASSWORD), loginType: 'email', approved: true, emailVerified: true, createdByAdmin: false, referralSource: 'admin' },
          now,
        );
      }
      if (config.DEMO_DATA) await seedDemoData(tx, now, storage);
    }
    if ((await tx.select({ id: settings.id }).from(settings).limit(1)).length === 0) await saveSettings(tx, DEFAULT_SETTINGS);
    // What the seed wrote is in force once this outer transaction is over, not its savepoint (db/read-cache.ts).
  }).finally(() => dataChanged('settings', 'carTypes', 'cancelReasons'));
  const present = await db.select({ email: users.email, usertype: users.usertype }).from(users).where(inArray(users.email, DEMO_EMAILS));
  return DEMO_EMAILS.flatMap((email) => {
    const found = present.find((row) => row.email === email);
    return found ? [{ role: found.usertype, email }] : [];
  });
}
