import type { Db } from '../src/db/client';

type Queryable = { query: (...args: unknown[]) => unknown };

const textOf = (first: unknown): string => {
  if (typeof first === 'string') return first;
  if (typeof first === 'object' && first !== null && 'text' in first && typeof first.text === 'string') return first.text;
  return String(first);
};

/**
 * Test-only: counts the statements a database client runs (issue 21: each endpoint issues the
 * fewest queries it can). Wraps `query` of the client behind the Db (the pg pool, or the PGlite
 * instance); statements inside a transaction on a pooled connection are not seen, which these
 * tests do not need (the endpoints they measure open none).
 */
export function countQueries(db: Db): { statements: string[]; reset: () => void; stop: () => void } {
  const client = (db as unknown as { $client: Queryable }).$client;
  const statements: string[] = [];
  const own = Object.prototype.hasOwnProperty.call(client, 'query');
  const original = client.query;
  client.query = function (this: unknown, ...args: unknown[]) {
    statements.push(textOf(args[0]));
    return original.apply(this, args);
  };
  return {
    statements,
    reset: () => { statements.length = 0; },
    stop: () => {
      if (own) client.query = original;
      else delete (client as Partial<Queryable>).query;
    },
  };
}
