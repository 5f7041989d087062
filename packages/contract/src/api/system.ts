import { z } from 'zod';

/** The server's own routes: health, the API document, the web app's pages and files. */

export const healthResponse = z.object({ status: z.literal('ok'), uptime: z.number().int().nonnegative().meta({ description: 'Seconds since the process started' }) });

export const openApiResponse = z.looseObject({ openapi: z.string() }).meta({ description: 'This document (OpenAPI 3)' });

/** A page of the web app (or the server's status page before the app is built). */
export const htmlPageResponse = { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } };

/** A file of the built web app (scripts, styles, icons, the manifest), or the app's page. */
export const webFileResponse = { description: "A file of the web app, with its own content type", content: { '*/*': { schema: z.string().meta({ format: 'binary' }) } } };

export const webFileParams = z.object({ '*': z.string().max(1000) });
