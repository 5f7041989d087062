import { z } from 'zod';

/** The server's own routes: health, the API document, the web app's pages and files. */

export const healthResponse = z.object({ status: z.literal('ok'), uptime: z.number().int().nonnegative().meta({ description: 'Seconds since the process started' }) });

/**
 * GET /api/health/ready (issue 23 point 1): whether this process should be sent traffic. `ok`
 * and 200 when the database answers with every migration of this build applied and the process
 * is not shedding load; 503 with the same body otherwise. Redis, when configured, is reported but
 * does not make the process unready: every process shares it, and routes that need only the
 * database keep working without it (docs/decisions.md, "Issue 23 points 1 and 3").
 */
export const readinessResponse = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  uptime: z.number().int().nonnegative(),
  checks: z.object({
    database: z.enum(['ok', 'down']),
    migrations: z.enum(['ok', 'pending', 'unknown']),
    redis: z.enum(['ok', 'down', 'not_configured']),
    load: z.enum(['ok', 'shedding']),
  }),
});
export type Readiness = z.infer<typeof readinessResponse>;

export const openApiResponse = z.looseObject({ openapi: z.string() }).meta({ description: 'This document (OpenAPI 3)' });

/** A page of the web app (or the server's status page before the app is built). */
export const htmlPageResponse = { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } };

/** A file of the built web app (scripts, styles, icons, the manifest), or the app's page. */
export const webFileResponse = { description: "A file of the web app, with its own content type", content: { '*/*': { schema: z.string().meta({ format: 'binary' }) } } };

export const webFileParams = z.object({ '*': z.string().max(1000) });

/** The server's metrics in Prometheus' text exposition format (issue 23 point 2): for the operator's scraper only. */
export const metricsTextResponse = { description: "Prometheus' text exposition format", content: { 'text/plain': { schema: z.string() } } };
