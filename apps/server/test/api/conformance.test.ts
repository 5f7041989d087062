import { randomUUID } from 'node:crypto';
import { ERROR_CATALOGUE } from '@rideway/contract';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { sample } from 'openapi-sampler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowed, type Access } from '../../src/http/routing';
import { codeOf, createTestApp, ENGINES, type TestApp } from '../harness';
import type { UserRow } from '../../src/modules/users/accounts';
import { openApiPath } from '../documented-responses';

/**
 * A conformance test generated from the API document the server publishes: every operation
 * answers a valid example with a status its document lists (the harness checks status and body
 * of every answer against the document), and a body with a wrong type in any one field is
 * refused with 400 and a catalogue key, with nothing stored.
 */

type Schema = { type?: string | string[]; nullable?: boolean; anyOf?: Schema[]; oneOf?: Schema[]; properties?: Record<string, Schema>; enum?: unknown[] };
type Parameter = { in: string; name: string; schema?: Schema; required?: boolean };
type Operation = { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, unknown> };
type Method = NonNullable<InjectOptions['method']>;

const ROLES = ['admin', 'rider', 'driver', 'fleetadmin'] as const;

const document = await (async () => {
  const t = await createTestApp('pglite');
  try {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json<{ paths: Record<string, Record<string, Operation>> }>();
    return { paths: doc.paths, access: new Map(t.app.routeAccess) };
  } finally {
    await t.close();
  }
})();

const operations = [...document.access].map(([key, access]) => {
  const [method = '', url = ''] = key.split(' ');
  const operation = document.paths[openApiPath(url)]?.[method.toLowerCase()];
  return { key, method: method as Method, url, access, operation };
});

/** The JSON types a schema admits. */
function typesOf(schema: Schema): Set<string> {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return new Set(alternatives.flatMap((alternative) => [...typesOf(alternative)]));
  const types = new Set(Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);
  if (types.has('integer')) types.add('number');
  if (schema.nullable) types.add('null');
  if (schema.enum?.includes(null)) types.add('null');
  return types;
}

const WRONG: [string, unknown][] = [['number', 12345], ['string', 'not-this-type'], ['boolean', true], ['object', { nested: 1 }], ['array', [1]]];

/** A value of a type the schema does not admit, or undefined where it admits any. */
function wrongValueFor(schema: Schema): unknown {
  const types = typesOf(schema);
  if (types.size === 0) return undefined;
  return WRONG.find(([type]) => !types.has(type))?.[1];
}

/**
 * The URL with each path parameter filled: a number where the route takes a numeric id (a refund's),
 * else a UUID; either names nothing, so a body's checks are what answers.
 */
const concreteUrl = (url: string, operation?: Operation): string =>
  url
    .replace(/:(\w+)/g, (_match, name: string) => {
      const type = operation?.parameters?.find((parameter) => parameter.in === 'path' && parameter.name === name)?.schema?.type;
      return type === 'number' || type === 'integer' ? '987654321' : randomUUID();
    })
    .replace('*', 'cartypes/none.png');

const queryOf = (operation: Operation | undefined): string => {
  const query = new URLSearchParams();
  for (const parameter of operation?.parameters ?? []) {
    if (parameter.in !== 'query' || !parameter.required || !parameter.schema) continue;
    query.set(parameter.name, String(sample(parameter.schema as never, { quiet: true })));
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
};

const jsonBodyOf = (operation: Operation | undefined): Schema | undefined => operation?.requestBody?.content['application/json']?.schema;

describe('the API document', () => {
  it('lists a response schema for every operation, and documents every request that has a body', () => {
    const withoutResponse = operations.filter(({ operation }) => !operation || !Object.keys(operation.responses).some((code) => /^[123]/.test(code)));
    expect(withoutResponse.map(({ key }) => key)).toEqual([]);
  });
});

describe.each(ENGINES)('every operation of /api/openapi.json on %s', (engine) => {
  let t: TestApp;
  let users: Record<(typeof ROLES)[number], UserRow>;
  beforeAll(async () => {
    t = await createTestApp(engine);
    users = { admin: await t.makeUser('admin'), rider: await t.makeUser('rider'), driver: await t.makeUser('driver'), fleetadmin: await t.makeUser('fleetadmin') };
  });
  afterAll(() => t.close());

  /** A user the route admits (an admin where it may), or nobody on a public route. */
  const callerFor = (access: Access): UserRow | null => {
    if (access === 'public') return null;
    const role = ROLES.find((candidate) => isAllowed(access, candidate));
    return role ? users[role] : null;
  };

  /** Every stored row of every table, as one text: what "nothing is stored" compares. */
  const storedState = async (): Promise<string> => {
    const rowsOf = async <T>(query: ReturnType<typeof sql>): Promise<T[]> => {
      const result: unknown = await t.db.execute(query);
      return (result as { rows: T[] }).rows;
    };
    const tables = await rowsOf<{ table_name: string }>(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
    const parts: string[] = [];
    for (const { table_name } of tables) {
      if (table_name === 'sessions') continue; // a request's own session is touched on use
      const rows = await rowsOf<{ digest: string | null }>(sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${sql.identifier(table_name)} t`);
      parts.push(`${table_name}:${rows[0]?.digest ?? ''}`);
    }
    return parts.join(',');
  };

  for (const { key, method, url, access, operation } of operations) {
    if (method === 'GET' && url === '/api/ws') continue; // the WebSocket upgrade: tested in test/live
    it(`${key}: a valid example gets a documented status`, async () => {
      const schema = jsonBodyOf(operation);
      const payload = schema ? sample(schema as never, { skipReadOnly: true, quiet: true }) : undefined;
      const response = await t.request({ method, url: `${concreteUrl(url, operation)}${queryOf(operation)}`, as: callerFor(access), ...(payload === undefined ? {} : { payload: payload as object }) });
      expect(response.statusCode, `${key}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
    });

    const schema = jsonBodyOf(operation);
    const fields = Object.entries(schema?.properties ?? {}).filter(([, field]) => wrongValueFor(field) !== undefined);
    if (fields.length === 0) continue;
    it(`${key}: a wrong type in each of ${fields.length} field(s) answers 400 with a catalogue key, and nothing is stored`, async () => {
      const example = sample(schema as never, { skipReadOnly: true, quiet: true }) as Record<string, unknown>;
      const before = await storedState();
      for (const [field, fieldSchema] of fields) {
        const payload = { ...example, [field]: wrongValueFor(fieldSchema) };
        const response = await t.request({ method, url: concreteUrl(url, operation), as: callerFor(access), payload });
        expect([field, response.statusCode], `${key} with a wrong ${field}: ${response.body.slice(0, 300)}`).toEqual([field, 400]);
        expect(Object.keys(ERROR_CATALOGUE)).toContain(codeOf(response));
      }
      expect(await storedState()).toBe(before);
    });
  }
});
