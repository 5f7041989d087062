/**
 * A phone number as a tel: link (issue 17, tap to call). Only digits and a leading plus are kept,
 * so a number typed with spaces or dashes dials, and nothing but a number reaches the link.
 */
export function telHref(number: string): string | undefined {
  const digits = number.trim().replace(/(?!^\+)[^\d]/g, '');
  return /\d{3,}/.test(digits) ? `tel:${digits}` : undefined;
}
