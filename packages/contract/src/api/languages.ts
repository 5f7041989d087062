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
