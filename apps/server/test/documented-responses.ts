import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fromSchema } from '@openapi-contrib/openapi-schema-to-json-schema';
import type { FastifyInstance } from 'fastify';

type MediaType = { schema?: object };
type ResponseDoc = { content?: Record<string, MediaType> };
type OperationDoc = { responses?: Record<string, ResponseDoc> };
type OpenApiDoc = { paths: Record<string, Record<string, OperationDoc>> };

/** The OpenAPI path of a Fastify route url: `/api/bookings/:id` -> `/api/bookings/{id}`. */
export const openApiPath = (url: string): string => url.replace(/:(\w+)/g, '{$1}').replace(/\*/g, '{*}');

/**
 * Checks every answer the server sends against the API document it publishes
 * (`/api/openapi.json`): the status must be documented for the operation (exactly or by its
 * 4XX/5XX range), and a JSON body must match the documented schema. Violations are collected,
 * and the harness fails the test that caused them: no response escapes the check.
 */
export function checkDocumentedResponses(app: FastifyInstance): { violations: string[] } {
  const violations: string[] = [];
  const ajv = new Ajv({ strict: false, allErrors: false });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();
  let document: OpenApiDoc | undefined;

  // The document is OpenAPI 3.0 (nullable, boolean exclusiveMinimum): ajv reads JSON Schema.
  const compile = (schema: object): ValidateFunction => {
    const { $schema: _draft, ...converted } = fromSchema(schema as Parameters<typeof fromSchema>[0]);
    return ajv.compile(converted);
  };

  const check = (method: string, url: string, status: number, contentType: string, payload: unknown): string | undefined => {
    document ??= app.swagger() as unknown as OpenApiDoc;
    const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()];
    if (!operation) return `${method} ${url} is not in the API document`;
    const responses = operation.responses ?? {};
    const key = String(status) in responses ? String(status) : `${String(status)[0]}XX` in responses ? `${String(status)[0]}XX` : undefined;
    if (key === undefined) return `${method} ${url} answered ${status}, which its document does not list (${Object.keys(responses).join(', ')})`;
    if (!contentType.startsWith('application/json') || typeof payload !== 'string' || payload === '') return undefined;
    const schema = responses[key]?.content?.['application/json']?.schema;
    if (!schema) return `${method} ${url} answered JSON with ${status}, which its document describes without a JSON schema`;
    const id = `${method} ${url} ${key}`;
    const validate = validators.get(id) ?? compile(schema);
    validators.set(id, validate);
    if (validate(JSON.parse(payload))) return undefined;
    return `${method} ${url} answered ${status} with a body its document does not describe: ${ajv.errorsText(validate.errors)} in ${payload.slice(0, 500)}`;
  };

  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    if (url === undefined || request.method === 'HEAD') return payload;
    try {
      const violation = check(request.method, url, reply.statusCode, String(reply.getHeader('content-type') ?? ''), payload);
      if (violation !== undefined) violations.push(violation);
    } catch (error) {
      violations.push(`${request.method} ${url}: its documented schema cannot be checked: ${String(error)}`);
    }
    return payload;
  });
  return { violations };
}
