import type { z } from 'zod';

/** Route options that document a body with a contract schema. */
export const withBody = (summary: string, body: z.ZodType) => ({ schema: { summary, body } });
export const withSummary = (summary: string) => ({ schema: { summary } });
