import { expect } from 'vitest';
import { unescapeHtml } from './card-trips';
import type { TestApp } from './harness';

/**
 * What a checkout page (src/modules/payments/checkout-page.ts) shows the rider, read from its HTML
 * with every character reference read back: the payment API tests compare it with what they expect.
 */
export type CheckoutPageFacts = {
  lang: string;
  dir: string;
  title: string;
  /** The app's name at the top. */
  brand: string;
  heading: string;
  /** The summary's rows: label and value (the booking's reference, the amount). */
  summary: [string, string][];
  stylesheet: string;
  back: { href: string; text: string };
  button: string;
  /** The failure texts the script shows in the `role="alert"` element (client pages only). */
  alert: { scriptFailed: string; cardFailed: string } | null;
};

/** An element's text: its inner markup (the amount's `<bdi>`) left out, its character references read back. */
const textOf = (inner: string): string => unescapeHtml(inner.replace(/<[^>]*>/g, ''));
const first = (pattern: RegExp, html: string): string => textOf(pattern.exec(html)?.[1] ?? '');

export function checkoutPageFacts(html: string): CheckoutPageFacts {
  const alert = /<p id="checkout-error" class="error" role="alert" data-script-failed="([^"]*)" data-card-failed="([^"]*)"><\/p>/.exec(html);
  return {
    lang: first(/<html lang="([^"]*)"/, html),
    dir: first(/<html [^>]*dir="([^"]*)"/, html),
    title: first(/<title>(.*?)<\/title>/, html),
    brand: first(/<header class="brand"><span>(.*?)<\/span><\/header>/, html),
    heading: first(/<h1>(.*?)<\/h1>/, html),
    summary: [...html.matchAll(/<dt>(.*?)<\/dt><dd[^>]*>(.*?)<\/dd>/g)].map((row): [string, string] => [textOf(row[1] ?? ''), textOf(row[2] ?? '')]),
    stylesheet: first(/<link rel="stylesheet" href="([^"]*)">/, html),
    back: { href: first(/<a class="back" href="([^"]*)">/, html), text: first(/<a class="back" [^>]*>(.*?)<\/a>/, html) },
    button: first(/<button type="submit" class="pay">(.*?)<\/button>/, html),
    alert: alert ? { scriptFailed: unescapeHtml(alert[1] ?? ''), cardFailed: unescapeHtml(alert[2] ?? '') } : null,
  };
}

/** An app name with markup in it, as an admin could type it in the settings: the page must show it as text. */
export const MARKUP_APP_NAME = `Ride <img src=x onerror="alert(1)"> & 'Co'`;

/** The page shows no raw markup from what someone typed: the app's name appears only escaped. */
export function expectNothingReflected(html: string): void {
  expect(html).not.toContain('<img');
  expect(html).not.toContain('onerror="');
  expect(html).toContain('Ride &#60;img src=x onerror=&#34;alert(1)&#34;&#62; &#38; &#39;Co&#39;');
}

/** The pages' stylesheet is served from this origin, as CSS (the security policy allows no other inline styling here). */
export async function expectStylesheetServed(t: TestApp, href: string): Promise<void> {
  const sheet = await t.request({ method: 'GET', url: href });
  expect([sheet.statusCode, sheet.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
  expect(sheet.body).toContain('.pay');
}

/** An amount under a thousand as the page writes it: the symbol, two decimals with the language's decimal mark, the code. */
export const pageAmount = (minor: number, symbol: string, code: string, decimalMark = '.'): string => `${symbol}${(minor / 100).toFixed(2).replace('.', decimalMark)} ${code}`;
