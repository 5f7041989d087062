/**
 * Security-critical: which payment providers take money. The embedded test provider confirms any
 * payment without charging a card, so it is on only where it belongs: in a database the demo data
 * was seeded into (the seeder writes the DEMO_MARKER row in the seed's transaction), or with
 * PAYMENT_TEST_PROVIDER=1 (tests). Elsewhere it is not listed, its routes do not exist, and a card
 * payment answers payment_provider_unavailable.
 */
import { eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import { serverSecrets } from '../../db/schema';
import type { PaymentProviderPort } from './port';
import { testProvider } from './test-provider';

/** The server_secrets row the demo seeder writes: this database holds demo data. */
export const DEMO_MARKER = 'demo_data';

/** Records, in the seed's transaction, that demo data was seeded into this database. */
export async function markDemoDatabase(tx: Db | Tx, now: number): Promise<void> {
  await tx.insert(serverSecrets).values({ name: DEMO_MARKER, value: { seededAt: new Date(now).toISOString() } }).onConflictDoNothing();
}

async function isDemoDatabase(db: Db): Promise<boolean> {
  return (await db.select({ name: serverSecrets.name }).from(serverSecrets).where(eq(serverSecrets.name, DEMO_MARKER)).limit(1)).length > 0;
}

// Demo data is seeded before the server is built and never later, so the answer is read once per database.
const known = new WeakMap<Db, Promise<boolean>>();

/** True when the embedded test provider takes payments here. */
export function isTestProviderOn(db: Db, config: Pick<Config, 'PAYMENT_TEST_PROVIDER'>): Promise<boolean> {
  if (config.PAYMENT_TEST_PROVIDER) return Promise.resolve(true);
  let answer = known.get(db);
  if (!answer) {
    answer = isDemoDatabase(db).catch((error: unknown) => {
      known.delete(db);
      throw error;
    });
    known.set(db, answer);
  }
  return answer;
}

/** The providers that take card payments here, in the order /get_providers lists them; none when empty. */
export async function providersInForce(db: Db, config: Pick<Config, 'PAYMENT_TEST_PROVIDER'>): Promise<PaymentProviderPort[]> {
  return (await isTestProviderOn(db, config)) ? [testProvider] : [];
}

/**
 * The adapter that gives back money a provider took, by name, whether or not it takes new
 * payments: a payment taken through the test provider is refunded through it.
 */
export function refundingProvider(name: string): PaymentProviderPort | undefined {
  return name === testProvider.name ? testProvider : undefined;
}
