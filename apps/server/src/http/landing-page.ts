import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The web build's drafts of the landing page, one per writing direction (apps/web/vite-plugins/landing-shell.ts). */
const DRAFTS = { ltr: 'landing-ltr.html', rtl: 'landing-rtl.html' } as const;
/** The page's own opening tag in the drafts (apps/web/index.html). */
const HTML_TAG = '<html lang="en">';
const MARK = /%%([a-z0-9_]+)%%/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);

/** The language a landing page is written in, with every message it may need (fallbacks merged in). */
export type PageLanguage = { code: string; dir: 'ltr' | 'rtl'; messages: Readonly<Record<string, string>> };
type Filled = { html: string; brotli: Buffer; gzip: Buffer };

/**
 * Issue 21 point 5: the landing page with its first view already in the HTML (the header bar, the
 * slogan, the booking form's placeholder), so a phone paints the slogan before the app's script
 * has arrived. The build draws it with each text as %%key%%; this writes the visitor's language in
 * (escaped: admins edit the language files) and its `lang` and `dir`. A filled page is kept, with
 * its compressed copies, until that language's texts change.
 */
export class LandingPages {
  private readonly filled = new Map<string, Filled>();
  private readonly drafts = new Map<keyof typeof DRAFTS, { mtimeMs: number; html: string }>();

  private constructor(private readonly root: string) {}

  /** The drafts of a web build, or null for a build without them (the plain page is served then). */
  static find(root: string): LandingPages | null {
    return existsSync(join(root, DRAFTS.ltr)) && existsSync(join(root, DRAFTS.rtl)) ? new LandingPages(root) : null;
  }

  /** A direction's draft, read again when the web app was built again while the server ran. */
  private async draft(dir: keyof typeof DRAFTS): Promise<string> {
    const path = join(this.root, DRAFTS[dir]);
    const { mtimeMs } = await stat(path);
    const known = this.drafts.get(dir);
    if (known?.mtimeMs === mtimeMs) return known.html;
    const html = await readFile(path, 'utf8');
    if (!html.includes(HTML_TAG)) throw new Error(`${DRAFTS[dir]} has no ${HTML_TAG}`);
    this.drafts.set(dir, { mtimeMs, html });
    return html;
  }

  /** The page in `language`: each mark replaced by its message (the key itself when none has it). */
  async fill(language: PageLanguage): Promise<string> {
    return (await this.draft(language.dir))
      .replace(HTML_TAG, `<html lang="${escapeHtml(language.code)}" dir="${language.dir}">`)
      .replace(MARK, (_mark, key: string) => escapeHtml(language.messages[key] ?? key));
  }

  /** Sends the page in `language`, compressed as the browser accepts; never cached by anyone, it follows the session and the language. */
  async send(request: FastifyRequest, reply: FastifyReply, language: PageLanguage): Promise<void> {
    const html = await this.fill(language);
    let page = this.filled.get(language.code);
    if (page?.html !== html) {
      page = { html, brotli: brotliCompressSync(html), gzip: gzipSync(html) };
      this.filled.set(language.code, page);
    }
    const accepted = request.headers['accept-encoding'] ?? '';
    void reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding, cookie').type('text/html; charset=utf-8');
    if (/\bbr\b/.test(accepted)) void reply.header('content-encoding', 'br').send(page.brotli);
    else if (/\bgzip\b/.test(accepted)) void reply.header('content-encoding', 'gzip').send(page.gzip);
    else void reply.send(page.html);
  }
}
