import { z } from 'zod';

/** Uploaded images served back: car types, profile and trip photos (licences are not served). */

/** The content type of a stored image, by its key's extension. */
export const IMAGE_CONTENT_TYPES: ReadonlyMap<string, string> = new Map([['png', 'image/png'], ['jpg', 'image/jpeg'], ['webp', 'image/webp']]);

export const fileParams = z.object({ '*': z.string().meta({ description: 'The stored key, e.g. cartypes/<id>.png' }) });

// The handler sends the stored bytes; the document shows them as a binary string.
const image = { schema: z.instanceof(Uint8Array).meta({ type: 'string', format: 'binary' }) };
/** The 200 answer: the image's bytes, typed by the key's extension. */
export const imageResponse = {
  description: 'The image',
  content: { 'image/png': image, 'image/jpeg': image, 'image/webp': image },
};
