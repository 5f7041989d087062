import { ERROR_CATALOGUE, errorBody, errorKeyOfIssue, fieldOfIssue } from '@rideway/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/availability';
import { MapsProviderError } from '../providers/maps/port';
import { StorageError } from '../providers/storage';
import { AppError } from './app-error';
import { UNAVAILABLE_RETRY_AFTER_S } from './health';

/** Seconds a client waits before asking again after a maps provider's passing failure. */
const MAPS_RETRY_AFTER_S = 5;

/** Fastify's own client errors (bad JSON, wrong content type, body too large) are bad input. */
const clientStatus = (error: unknown): number | undefined => {
  if (typeof error !== 'object' || error === null || !('statusCode' in error)) return undefined;
  const status = error.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
};

/**
 * The one error mapper (ARCHITECTURE rule 5): an AppError answers its key, and so does a maps
 * provider's failure (MapsProviderError); a request refused by
 * its route's zod schema answers the key its first issue carries (the field's spec key, or
 * validation_error) with the field; Fastify's own client errors answer validation_error or
 * not_found; anything else is logged and answers internal_error.
 */
export function errorHandler(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    return reply
      .headers(error.headers)
      .status(ERROR_CATALOGUE[error.key].status)
      .send(errorBody(error.key, { ...(error.field === undefined ? {} : { field: error.field }), ...(error.details === undefined ? {} : { details: error.details }) }));
  }
  // A maps provider that timed out, refused, failed or answered malformed: the call's spec key
  // and its 4xx, never a guess and never a 500 (issue 16).
  if (error instanceof MapsProviderError) {
    request.log.warn({ provider: error.provider, reason: error.reason, detail: error.message }, 'maps provider failed');
    // A provider that timed out, refused or failed may answer in a moment: the client may retry
    // (and a keyed request's key is released, see idempotency.ts); a malformed answer will not mend.
    if (error.reason !== 'malformed') void reply.header('retry-after', String(MAPS_RETRY_AFTER_S));
    return reply.status(ERROR_CATALOGUE[error.key].status).send(errorBody(error.key));
  }
  if (hasZodFastifySchemaValidationErrors(error) && error.validation[0]) {
    const issue = error.validation[0];
    const key = errorKeyOfIssue(issue);
    const path = issue.instancePath.split('/').filter((part) => part !== '');
    const keys = (issue.params as { keys?: unknown }).keys;
    const field = fieldOfIssue({ code: issue.keyword, path, keys: Array.isArray(keys) ? keys.map(String) : undefined });
    return reply.status(ERROR_CATALOGUE[key].status).send(errorBody(key, field === undefined ? {} : { field }));
  }
  const status = clientStatus(error);
  if (status !== undefined) return reply.status(status).send(errorBody(status === 404 ? 'not_found' : 'validation_error'));
  // A part the request needed out of reach: the database (stopped, restarting, out of
  // connections) or the file store. Nothing was committed, and the same request may succeed in a
  // moment (issue 23 point 4). After the client's own errors: a client that drops its upload
  // (ECONNRESET, a 400) is not an outage.
  if (error instanceof StorageError) {
    request.log.error({ err: error }, 'file storage failed');
    return reply.status(503).header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S)).send(errorBody('service_unavailable'));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'a service this request needed (the database) is out of reach');
    return reply.status(503).header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S)).send(errorBody('service_unavailable'));
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send(errorBody('internal_error'));
}
