import type { FastifySchema } from 'fastify';
import type { z } from 'zod';
import type { Access } from './access';

/** The OpenAPI tag, security and note on who may call a route, from its row in the route table. */
export function describeAccess(url: string, access: Access): FastifySchema {
  const tag = url.startsWith('/api/') ? (url.split('/')[2] ?? 'api') : 'compat (spec section 7)';
  const who = access === 'public' ? 'Anyone.' : access === 'signedIn' ? 'Any signed-in user.' : `Allowed: ${access.join(', ')}.`;
  return {
    tags: [tag],
    description: who,
    ...(access === 'public' ? {} : { security: [{ bearerAuth: [] }, { cookieAuth: [] }] }),
  };
}

/** Route options that document a body with a contract schema. */
export const withBody = (summary: string, body: z.ZodType) => ({ schema: { summary, body } });
export const withSummary = (summary: string) => ({ schema: { summary } });
