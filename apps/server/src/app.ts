import { ERROR_CATALOGUE, errorBody } from '@rideway/contract';
import type { ErrorKey } from '@rideway/domain';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config';
import { statusPage } from './status-page';

export type AppOptions = { config: Config; logger?: FastifyServerOptions['logger'] };

/** An error that carries one of the catalogue's keys; the error handler answers it as such. */
export class AppError extends Error {
  constructor(
    readonly key: ErrorKey,
    readonly field?: string,
  ) {
    super(ERROR_CATALOGUE[key].message);
  }
}

/** Fastify's own client errors (bad JSON, wrong content type, body too large) are bad input. */
const isClientError = (error: unknown): error is { statusCode: number } =>
  typeof error === 'object' && error !== null && 'statusCode' in error &&
  typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500;

export function buildApp({ config, logger }: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: logger ?? { level: config.LOG_LEVEL },
    bodyLimit: 1024 * 1024,
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(ERROR_CATALOGUE[error.key].status).send(errorBody(error.key, error.field === undefined ? {} : { field: error.field }));
    }
    if (isClientError(error)) {
      return reply.status(error.statusCode === 429 ? 429 : 400).send(errorBody(error.statusCode === 429 ? 'too_many_requests' : 'validation_error'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody('internal_error'));
  });

  app.setNotFoundHandler((_request, reply) => reply.status(404).send(errorBody('not_found')));

  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
  });

  app.get('/api/health', () => ({ status: 'ok' as const, uptime: Math.round(process.uptime()) }));

  app.get('/', (_request, reply) => reply.type('text/html; charset=utf-8').send(statusPage()));

  return app;
}
