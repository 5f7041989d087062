import { ERROR_KEYS, SPEC_ERROR_KEYS } from '@rideway/domain';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, errorBody, errorResponseSchema, errorStatus } from './errors';

describe('section 8: the error catalogue', () => {
  it('has an English text and an HTTP status for every key', () => {
    expect(Object.keys(ERROR_CATALOGUE).sort()).toEqual([...ERROR_KEYS].sort());
    for (const [key, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(entry.message.length, key).toBeGreaterThan(0);
      expect(entry.status, key).toBeGreaterThanOrEqual(400);
    }
  });

  it('answers every bad-input key with a 4xx; only server faults are 5xx', () => {
    const serverFaults = Object.entries(ERROR_CATALOGUE).filter(([, entry]) => entry.status >= 500).map(([key]) => key);
    // A payment provider that could not be reached is an upstream fault (502): the provider or client tries again later.
    // A database or file store out of reach, or a process shedding load, is the service's (503, issue 23): the client retries after Retry-After.
    expect(serverFaults.sort()).toEqual(['internal_error', 'payment_provider_error', 'reg_error', 'service_unavailable']);
    for (const key of SPEC_ERROR_KEYS) if (key !== 'reg_error') expect(errorStatus(key), key).toBeLessThan(500);
  });

  it("keeps the spec's literal texts where section 8 gives them", () => {
    expect(ERROR_CATALOGUE.no_route_found.message).toBe('No Route Found');
    expect(ERROR_CATALOGUE.wrong_code.message).toBe('wrong code');
  });

  it('builds the API error body: {"error": {"code", "message"}}', () => {
    const body = errorBody('past_booking_error', { field: 'tripdate' });
    expect(body).toEqual({
      error: { code: 'past_booking_error', message: 'A later booking must be at least 15 minutes from now.', field: 'tripdate' },
    });
    expect(errorResponseSchema.parse(body)).toEqual(body);
    expect(errorResponseSchema.safeParse({ error: { code: 'made_up', message: 'x' } }).success).toBe(false);
  });
});
