import { z } from 'zod';

/** Section 7 GET /get_languages: every language file by its code, the default first. */

export const languageFileSchema = z.object({
  name: z.string(),
  dir: z.enum(['ltr', 'rtl']),
  default: z.boolean(),
  messages: z.record(z.string(), z.string()),
});
export type LanguageFile = z.infer<typeof languageFileSchema>;

export const languageMapResponse = z.record(z.string(), languageFileSchema).meta({ description: 'Language files by code; the first is the default' });

/**
 * `?messages=es` (codes, comma-separated): the messages of those languages and of the default
 * only, every other language with its name and direction and no messages. A page loads the one
 * language it shows, not all of them (issue 21 point 5); without it, every language's messages.
 */
export const languageMapQuery = z.object({
  messages: z.string().max(200).regex(/^[A-Za-z0-9_,-]*$/, 'validation_error').optional(),
});

