/**
 * Security-critical: `Idempotency-Key` on the writes money and trips depend on (ARCHITECTURE
 * rule 10; decisions.md, "Idempotency keys"). A route opts in with `config: { idempotent: true }`.
 *
 * A key is the caller's (scoped to the signed-in user) and names one request: its route, path
 * parameters and parsed body. Before the handler runs the key is claimed by one atomic insert, so
 * of parallel retries exactly one runs and the others answer 409 `idempotency_key_in_use`. The
 * claimed request spends the key inside its write's own transaction (every transaction the
 * services open through `ctx.db` while the request runs does so, see `spendingKeys`), so a key is
 * spent exactly when the write commits, on every engine and process, whatever crashes after.
 * The answer is stored as the request answers, and a retry with the same key answers it again
 * with `Idempotent-Replayed: true`, writing nothing.
 *
 * - Same key, other route or body: 422 `idempotency_key_reused`, nothing runs.
 * - An answer of the handler (2xx, or a 4xx such as 409 insufficient_balance) is kept 24 hours.
 * - A 5xx, a 429 or an answer with Retry-After (a maps provider down for now) of a request that
 *   wrote nothing releases the key: the retry runs again.
 *   Where the write committed, the answer (whatever it is) is kept.
 * - Refusals before the handler (bad input, not signed in) claim nothing.
 * - A claim whose request died before its write committed is taken over by a retry after a
 *   minute; the old request, if it still runs, can no longer spend the key and its write rolls
 *   back. A key spent by a request that died before its answer was stored answers 409 until it
 *   expires: the write happened, and the client finds it in its lists.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import { idempotencyHeaders } from '@rideway/contract';
import { and, eq, lte, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler, RouteOptions } from 'fastify';
import type { AppContext } from '../context';
import type { Db, Tx } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { AppError } from './app-error';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route honours an `Idempotency-Key` header (signed-in callers, unsafe methods only). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key this request holds, while it runs. */
    idempotencyClaim: Claim | null;
  }
}

/** How long a key answers its first result (Stripe: at least 24 hours). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** How long a claim whose write has not committed is held before a retry may take it over. */
export const IDEMPOTENCY_LEASE_MS = 60_000;
/** The answer header of a replay. */
export const REPLAYED_HEADER = 'idempotent-replayed';
/** The field its refusals name: the header, as the document spells it (and as a bad key's 400 names it). */
const FIELD = 'idempotency-key';
/** Expired keys deleted by each new claim: more than one, so the table never grows past a day's keys. */
const SWEEP_BATCH = 100;

type Claim = { uid: string; key: string; owner: string; /** The answer is being stored: later transactions do not spend the key. */ settled: boolean };
type KeyRow = typeof idempotencyKeys.$inferSelect;

const running = new AsyncLocalStorage<Claim>();

const ofKey = (uid: string, key: string) => and(eq(idempotencyKeys.uid, uid), eq(idempotencyKeys.key, key));
const ofClaim = (claim: Claim) => and(ofKey(claim.uid, claim.key), eq(idempotencyKeys.owner, claim.owner));

/** JSON with the keys of every object sorted: one spelling per value. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, inner]) => inner !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, inner]) => `${JSON.stringify(name)}:${canonical(inner)}`).join(',')}}`;
  }
  return value === undefined ? 'null' : JSON.stringify(value);
}

const fingerprintOf = (endpoint: string, params: unknown, body: unknown): string =>
  createHash('sha256').update(canonical({ endpoint, params: params ?? null, body: body ?? null })).digest('hex');

/** Spends the claim's key in the write's transaction; a claim taken over refuses, rolling the write back. */
async function spend(tx: Tx, claim: Claim): Promise<void> {
  const spent = await tx
    .update(idempotencyKeys)
    .set({ state: 'committed' })
    .where(and(ofClaim(claim), ne(idempotencyKeys.state, 'done')))
    .returning({ uid: idempotencyKeys.uid });
  if (spent.length === 0) throw new AppError('idempotency_key_in_use', FIELD);
}

/**
 * The services' database (`ctx.db`): the same, except that a transaction opened while a request
 * holding a key runs spends the key first, in that transaction.
 */
export function spendingKeys(db: Db): Db {
  const transaction: Db['transaction'] = (work, config) => {
    const claim = running.getStore();
    if (!claim || claim.settled) return db.transaction(work, config);
    return db.transaction(async (tx) => {
      await spend(tx, claim);
      return work(tx);
    }, config);
  };
  return new Proxy(db, { get: (target, property, receiver) => (property === 'transaction' ? transaction : (Reflect.get(target, property, receiver) as unknown)) });
}

/** Deletes a batch of keys older than a day (rows another claim is deleting are skipped). */
async function sweep(db: Db, now: number): Promise<void> {
  await db.execute(sql`
    delete from ${idempotencyKeys} where (uid, key) in (
      select uid, key from ${idempotencyKeys} where created_at <= ${now - IDEMPOTENCY_TTL_MS}
      order by created_at limit ${SWEEP_BATCH} for update skip locked)`);
}

function replay(reply: FastifyReply, row: KeyRow): void {
  void reply
    .code(row.statusCode ?? 200)
    .header(REPLAYED_HEADER, 'true')
    .type(row.contentType ?? 'application/json; charset=utf-8')
    .send(row.response ?? '');
}

/** Claims the request's key, or answers the stored result; null where the request carries no key. */
async function claimKey(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<Claim | 'replayed' | null> {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string' || !request.actor) return null;
  const uid = request.actor.uid;
  const endpoint = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const fingerprint = fingerprintOf(endpoint, request.params, request.body);
  const now = ctx.now();
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const owner = randomUUID();
    const claimed = await ctx.db
      .insert(idempotencyKeys)
      .values({ uid, key, endpoint, fingerprint, state: 'in_flight', owner, lockedAt: now, createdAt: now })
      .onConflictDoNothing()
      .returning({ owner: idempotencyKeys.owner });
    if (claimed.length > 0) {
      await sweep(ctx.db, now);
      return { uid, key, owner, settled: false };
    }
    const row = (await ctx.db.select().from(idempotencyKeys).where(ofKey(uid, key)))[0];
    if (!row) continue; // released meanwhile
    if (row.createdAt <= now - IDEMPOTENCY_TTL_MS) {
      await ctx.db.delete(idempotencyKeys).where(and(ofKey(uid, key), lte(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_MS)));
      continue;
    }
    if (row.endpoint !== endpoint || row.fingerprint !== fingerprint) throw new AppError('idempotency_key_reused', FIELD);
    if (row.state === 'done') {
      replay(reply, row);
      return 'replayed';
    }
    if (row.state === 'committed' || row.lockedAt > now - IDEMPOTENCY_LEASE_MS) throw new AppError('idempotency_key_in_use', FIELD);
    // Its request died before its write committed (the key is spent with the write): take it over.
    const taken = await ctx.db
      .update(idempotencyKeys)
      .set({ owner, lockedAt: now })
      .where(and(ofKey(uid, key), eq(idempotencyKeys.owner, row.owner), eq(idempotencyKeys.state, 'in_flight')))
      .returning({ owner: idempotencyKeys.owner });
    if (taken.length > 0) return { uid, key, owner, settled: false };
  }
  throw new AppError('idempotency_key_in_use', FIELD);
}

/**
 * Stores the answer under the key. A server fault, a throttle refusal or any answer that says
 * when to retry (5xx, 429, Retry-After: an outside provider that failed for now) of a request that
 * wrote nothing releases the key instead, so the retry runs again.
 */
async function settle(ctx: AppContext, claim: Claim, answer: { status: number; contentType: string; retryLater: boolean }, payload: unknown): Promise<void> {
  claim.settled = true;
  const { status, contentType } = answer;
  const replayable = typeof payload === 'string';
  if (status >= 500 || status === 429 || answer.retryLater || !replayable) {
    const released = await ctx.db.delete(idempotencyKeys).where(and(ofClaim(claim), eq(idempotencyKeys.state, 'in_flight'))).returning({ uid: idempotencyKeys.uid });
    if (released.length > 0 || !replayable) return;
  }
  await ctx.db
    .update(idempotencyKeys)
    .set({ state: 'done', statusCode: status, contentType, response: payload })
    .where(and(ofClaim(claim), ne(idempotencyKeys.state, 'done')));
}

const hooksOf = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/**
 * Adds the claim (last before the handler), the stored answer (on send) and the header's schema
 * to every route that says `idempotent: true`; such a route must admit only signed-in callers.
 */
export function registerIdempotency(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('idempotencyClaim', null);

  const claimHook: preHandlerHookHandler = (request, reply, done) => {
    claimKey(ctx, request, reply).then(
      (claim) => {
        if (claim === 'replayed') return;
        if (claim === null) {
          done();
          return;
        }
        request.idempotencyClaim = claim;
        // The handler runs inside the claim: its transactions spend the key (spendingKeys).
        running.run(claim, done);
      },
      (error: unknown) => {
        done(error as Error);
      },
    );
  };

  const settleHook: onSendHookHandler = (request, reply, payload, done) => {
    const claim = request.idempotencyClaim;
    if (!claim) {
      done(null, payload);
      return;
    }
    request.idempotencyClaim = null;
    const answer = { status: reply.statusCode, contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'), retryLater: reply.hasHeader('retry-after') };
    settle(ctx, claim, answer, payload).then(
      () => { done(null, payload); },
      (error: unknown) => {
        // The answer still goes out; the key stays claimed, and a retry answers 409 or takes it over.
        request.log.error({ err: error }, 'idempotency key not settled');
        done(null, payload);
      },
    );
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.idempotent !== true) return;
    const methods = hooksOf(route.method);
    if (route.config.access === 'public' || methods.some((method) => ['GET', 'HEAD', 'OPTIONS'].includes(method))) {
      throw new Error(`route ${methods.join(',')} ${route.url}: Idempotency-Key needs a signed-in caller and an unsafe method`);
    }
    const schema = route.schema ?? {};
    if (schema.headers !== undefined) throw new Error(`route ${route.url}: Idempotency-Key brings its own headers schema`);
    const note = 'Send an `Idempotency-Key` (a UUID per action) to make retries safe: a repeat with the same key within 24 hours answers the first result and writes nothing.';
    route.schema = { ...schema, headers: idempotencyHeaders, description: [schema.description, note].filter(Boolean).join(' ') };
    route.preHandler = [...hooksOf(route.preHandler), claimHook];
    route.onSend = [...hooksOf(route.onSend), settleHook];
  });
}
