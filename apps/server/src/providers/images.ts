import type sharpModule from 'sharp';

/**
 * sharp, the image library (photos, documents, vehicles), loaded with the first image a server is
 * sent rather than with the server: it is one of the largest packages it holds (issue 21 point 4).
 */
export const imageLibrary = async (): Promise<typeof sharpModule> => (await import('sharp')).default;
