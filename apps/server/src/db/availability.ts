import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrationsFolder, rowsOf, type Db } from './client';

/**
 * Socket errors, and PostgreSQL's SQLSTATEs, that say the database cannot be reached now
 * (stopped, restarting, failing over, out of connections) rather than that the request was
 * wrong: class 08 (connection exception), 57P01 to 57P03 (shut down, cannot connect now) and
 * 53300 (too many connections).
 */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300']);
/** node-postgres words some of these without a code. */
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|not queryable|Cannot use a pool after calling end/i;

/**
 * True when `error`, or what it wraps (drizzle wraps a driver's error as its `cause`), says the
 * database is out of reach: the request may succeed in a moment, so it answers 503, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (UNAVAILABLE_MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

let newestMigration: Promise<number> | undefined;

/** The `when` of this build's newest migration, read once from the journal shipped beside it. */
function newestMigrationOfBuild(): Promise<number> {
  newestMigration ??= readFile(join(migrationsFolder, 'meta', '_journal.json'), 'utf8').then((text) => {
    const journal = JSON.parse(text) as { entries: { when: number }[] };
    return Math.max(...journal.entries.map((entry) => entry.when));
  });
  return newestMigration;
}

export type DatabaseHealth = { database: 'ok' | 'down'; migrations: 'ok' | 'pending' | 'unknown' };

/**
 * Whether the database answers within `timeoutMs`, and whether it holds every migration this
 * build ships (drizzle records each applied one in drizzle.__drizzle_migrations with its
 * journal `when`). A process started by an older build against a newer schema says ok; one whose
 * schema is behind (a restore from an old dump, a failed upgrade) says pending.
 */
export async function checkDatabase(db: Db, timeoutMs: number): Promise<DatabaseHealth> {
  const check = async (): Promise<DatabaseHealth> => {
    const rows = rowsOf<{ last: string | null }>(await db.execute(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`));
    const last = Number(rows[0]?.last ?? 0);
    return { database: 'ok', migrations: last >= (await newestMigrationOfBuild()) ? 'ok' : 'pending' };
  };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<DatabaseHealth>((resolve) => {
    timer = setTimeout(() => { resolve({ database: 'down', migrations: 'unknown' }); }, timeoutMs);
  });
  try {
    return await Promise.race([check().catch((): DatabaseHealth => ({ database: 'down', migrations: 'unknown' })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
