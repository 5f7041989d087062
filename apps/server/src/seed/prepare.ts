import { inArray, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
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

/**
 * Readies a migrated database: the shipped languages; on an empty database the bootstrap admin
 * (BOOTSTRAP_ADMIN_*) and, unless DEMO_DATA=0, the demo data. Answers the demo logins present.
 */
export async function prepareDatabase(db: Db, config: Config, now = Date.now(), storage?: FileStorage): Promise<DemoLogin[]> {
  await installLanguages(db);
  const count = Number((await db.select({ count: sql<string>`count(*)` }).from(users))[0]?.count ?? 0);
  if (count === 0) {
    if (config.BOOTSTRAP_ADMIN_EMAIL && config.BOOTSTRAP_ADMIN_PASSWORD) {
      await insertAccount(
        db,
        { firstName: 'Admin', lastName: 'User', email: config.BOOTSTRAP_ADMIN_EMAIL.toLowerCase(), mobile: null, usertype: 'admin', passwordHash: await hashPassword(config.BOOTSTRAP_ADMIN_PASSWORD), loginType: 'email', approved: true, emailVerified: true, createdByAdmin: false, referralSource: 'admin' },
        now,
      );
    }
    if (config.DEMO_DATA) await seedDemoData(db, now, storage);
  }
  if ((await db.select({ id: settings.id }).from(settings).limit(1)).length === 0) await saveSettings(db, DEFAULT_SETTINGS);
  const present = await db.select({ email: users.email, usertype: users.usertype }).from(users).where(inArray(users.email, DEMO_EMAILS));
  return DEMO_EMAILS.flatMap((email) => {
    const found = present.find((row) => row.email === email);
    return found ? [{ role: found.usertype, email }] : [];
  });
}
