import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { Db } from '../../src/db/client';
import { memoryStorage } from '../../src/providers/storage';
import { prepareDatabase } from '../../src/seed/prepare';
import { SERVER_SECRETS } from '../server-secrets';

export type Answer = { status: number; body: Record<string, unknown> };

/**
 * The platform on a database an operator handed over (restored, upgraded), started as main.ts
 * starts it: prepareDatabase (languages; no demo data into a database that has users), then the
 * app, called through its HTTP API.
 */
export async function serve(db: Db, env: Record<string, string> = {}, now: () => number = Date.now) {
  const config = loadConfig({ ...SERVER_SECRETS, LOG_LEVEL: 'silent', ...env });
  const demoLogins = await prepareDatabase(db, config, now());
  const app: FastifyInstance = await buildApp({ config, db, storage: memoryStorage(), now, logger: false, background: false });
  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, token?: string, payload?: Record<string, unknown>): Promise<Answer> => {
    const answer = await app.inject({ method, url, headers: token ? { authorization: `Bearer ${token}` } : {}, ...(payload === undefined ? {} : { payload }) });
    return { status: answer.statusCode, body: answer.json<Record<string, unknown>>() };
  };
  const login = async (email: string, password = 'demo123') => {
    const answer = await call('POST', '/api/auth/login', undefined, { email, password });
    if (answer.status !== 200) throw new Error(`login ${email}: ${String(answer.status)} ${JSON.stringify(answer.body)}`);
    return answer.body.token as string;
  };
  return { app, call, login, demoLogins, close: () => app.close() };
}
