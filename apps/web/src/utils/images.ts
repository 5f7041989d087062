/** An image file as a data URL, as it is; the server checks its bytes and stores it. */
export const readImage = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => { resolve(typeof reader.result === 'string' ? reader.result : ''); };
    reader.onerror = () => { reject(reader.error ?? new Error('unreadable')); };
    reader.readAsDataURL(file);
  });

/**
 * A camera photo as a JPEG data URL, scaled down in the browser to `maxSide` pixels so a phone's
 * 12-megapixel picture is sent in a few hundred kilobytes.
 */
export async function scaledPhoto(file: File, maxSide: number): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return canvas.toDataURL('image/jpeg', 0.85);
}
