import { money } from '@rideway/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './response-serializer';

const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/api/example', httpStatus: '200' });
const booking = z.object({ id: z.string(), fare: money, driver: z.string().nullable(), stops: z.array(z.object({ lat: z.number(), add: z.string().nullable() })) });

describe('answers written by the compiled serializer (issue 21 point 1)', () => {
  const write = responseSerializerCompiler({ check: false })(route(booking));
  const checked = responseSerializerCompiler({ check: true })(route(booking));

  it('writes only what the schema names, nulls and values alike, as zod does', () => {
    const value = { id: 'b1', fare: 12.5, driver: null, stops: [{ lat: 51.5, add: null, secret: 'x' }, { lat: 51.6, add: 'Tower' }], passwordHash: 'never' };
    expect(JSON.parse(write(value))).toEqual({ id: 'b1', fare: 12.5, driver: null, stops: [{ lat: 51.5, add: null }, { lat: 51.6, add: 'Tower' }] });
    expect(write(value)).toBe(JSON.stringify(z.encode(booking, value as z.output<typeof booking>)));
    expect(checked({ ...value, driver: 'd1' })).toBe(write({ ...value, driver: 'd1' }));
  });

  it("refuses, when checking, a value zod refuses; without the check the refinement is not run (decisions.md)", () => {
    const badAmount = { id: 'b1', fare: 12.345, driver: null, stops: [] };
    expect(() => checked(badAmount)).toThrow();
    expect(JSON.parse(write(badAmount))).toMatchObject({ fare: 12.345 });
    // A missing required field is refused either way.
    expect(() => write({ id: 'b1', driver: null, stops: [] })).toThrow();
  });

  it('keeps zod for a schema JSON Schema cannot state (a date), and writes what zod writes', () => {
    const dated = z.object({ at: z.date(), note: z.string() });
    const at = new Date(Date.UTC(2026, 11, 1));
    expect(responseSerializerCompiler({ check: false })(route(dated))({ at, note: 'n', extra: 1 })).toBe(JSON.stringify({ at, note: 'n' }));
  });
});
