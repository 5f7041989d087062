// The city simulation's baseline (issue 21 point 6): the SQL one trip issued, recorded in the
// server process by a query log, replayed bare through pg (no HTTP, no validation, no JSON, no
// event delivery) by as many connections as the server's pool holds.
import { randomInt, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';

export type Statement = { text: string; values: unknown[] };

/**
 * The query log, as an ES module for `node --import`: it wraps pg's Client.query in the server
 * process (pg stays outside the server's bundle, so the server's and this module's pg are one).
 * SIGUSR2 starts a recording; the next SIGUSR2 writes it to `file` as JSON and stops.
 */
export function queryLogModule(file: string): string {
  const pgEntry = createRequire(import.meta.url).resolve('pg');
  return `import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const pg = createRequire(${JSON.stringify(pgEntry)})(${JSON.stringify(pgEntry)});
let log = null;
process.on('SIGUSR2', () => {
  if (log === null) { log = []; return; }
  writeFileSync(${JSON.stringify(file)}, JSON.stringify(log, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)));
  log = null;
});
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, values, callback) {
  if (log !== null) {
    const text = typeof config === 'string' ? config : config && config.text;
    const params = Array.isArray(values) ? values : (config && config.values) || [];
    if (typeof text === 'string') log.push({ text, values: params });
  }
  return query.call(this, config, values, callback);
};
`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Per table, its columns with a unique index of their own (the primary key among them). */
export type UniqueColumns = Map<string, Set<string>>;

/** A connection the replay sends statements on: pg's Client, or the embedded PGlite's. */
export type Connection = { query: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>; end: () => Promise<void> };

export async function uniqueColumns(connection: Connection): Promise<UniqueColumns> {
  const { rows } = await connection.query(
    `select c.relname as "table", a.attname as "column" from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
     join pg_attribute a on a.attrelid = c.oid and a.attnum = i.indkey[0] where n.nspname = 'public' and i.indisunique and i.indnatts = 1`,
    [],
  );
  const unique: UniqueColumns = new Map();
  for (const { table, column } of rows as { table: string; column: string }[]) unique.set(table, (unique.get(table) ?? new Set()).add(column));
  return unique;
}

/** A pg connection to `url`. */
export async function pgConnection(url: string): Promise<Connection> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return { query: (text, values) => client.query(text, values), end: () => client.end() };
}

/** The keys a trip's INSERTs create (values of uniquely indexed columns): each replay gets fresh ones. */
export function createdKeys(statements: Statement[], unique: UniqueColumns): string[] {
  const keys = new Set<string>();
  for (const { text, values } of statements) {
    const insert = /^\s*insert\s+into\s+"?([\w]+)"?\s*\(([^)]*)\)\s*values\s*(.*)$/is.exec(text);
    const keyed = unique.get(insert?.[1] ?? '');
    if (!insert || !keyed) continue;
    const columns = (insert[2] ?? '').split(',').map((column) => column.trim().replaceAll('"', ''));
    for (const tuple of (insert[3] ?? '').matchAll(/\(([^()]*)\)/g)) {
      const tokens = (tuple[1] ?? '').split(',');
      columns.forEach((column, at) => {
        if (!keyed.has(column)) return;
        const param = /^\$(\d+)$/.exec(tokens[at]?.trim() ?? '');
        const value = param ? values[Number(param[1]) - 1] : undefined;
        if (typeof value === 'string' && value.length >= 4) keys.add(value);
      });
    }
  }
  return [...keys];
}

/** A key like `key` (a UUID, or the same letters and digits scrambled), new to the database. */
const freshKey = (key: string): string =>
  UUID.test(key) ? randomUUID() : key.replace(/[0-9]/g, () => String(randomInt(10))).replace(/[A-Za-z]/g, (c) => String.fromCharCode((c <= 'Z' ? 65 : 97) + randomInt(26)));

/** The trip's statements with fresh keys in place of the ones it created, and `people` (a rider's and a driver's ids) swapped for others. */
export function freshTrip(statements: Statement[], created: string[], people: Map<string, string>): Statement[] {
  const swap = new Map([...people, ...created.map((key): [string, string] => [key, freshKey(key)])]);
  const replace = (value: unknown): unknown => {
    if (typeof value !== 'string') return value;
    let out = value;
    for (const [from, to] of swap) if (out.includes(from)) out = out.replaceAll(from, to);
    return out;
  };
  // The server skips numbering events when another transaction holds the lock (the other numbers
  // them); a replay, which does not read answers, waits for the lock instead of numbering twice.
  return statements.map(({ text, values }) => ({ text: text.replace('pg_try_advisory_xact_lock', 'pg_advisory_xact_lock'), values: values.map(replace) }));
}

/**
 * Trips per second of the recorded statements replayed on `connections` connections for `ms`;
 * statements that failed are counted (each `connect()` opens one). Each connection plays its own rider and driver
 * (`people(connection)`: the recorded ids to theirs), as a driver has one trip at a time.
 */
export async function replayBare(connect: () => Promise<Connection>, statements: Statement[], connections: number, ms: number, people: (connection: number) => Map<string, string>): Promise<{ tripsPerSecond: number; failed: number; firstFailure: string | null }> {
  const probe = await connect();
  const created = createdKeys(statements, await uniqueColumns(probe).finally(() => probe.end()));
  let trips = 0;
  let failed = 0;
  let firstFailure: string | null = null;
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, async (_, connection) => {
    const mine = people(connection);
    const client = await connect();
    try {
      while (performance.now() - started < ms) {
        for (const { text, values } of freshTrip(statements, created, mine)) {
          try {
            await client.query(text, values);
          } catch (error) {
            failed += 1;
            firstFailure ??= `${error instanceof Error ? error.message : String(error)} in: ${text.slice(0, 160)}`;
          }
        }
        trips += 1;
      }
    } finally {
      await client.end();
    }
  }));
  return { tripsPerSecond: (trips * 1000) / (performance.now() - started), failed, firstFailure };
}
