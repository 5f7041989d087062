import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The web build's drafts of the landing page, one per writing direction and audience: a signed-in
 * user's booking form has a map a visitor's has not (apps/web/vite-plugins/landing-shell.ts).
 */
const DRAFTS = {
  'ltr-visitor': 'landing-ltr-visitor.html',
  'rtl-visitor': 'landing-rtl-visitor.html',
  'ltr-member': 'landing-ltr-member.html',
  'rtl-member': 'landing-rtl-member.html',
} as const;
type Draft = keyof typeof DRAFTS;
/** The page's own opening tag in the drafts (apps/web/index.html). */
const HTML_TAG = '<html lang="en">';
const MARK = /%%([a-z0-9_]+)%%/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);

/** The language a landing page is written in, with every message it may need (fallbacks merged in). */
export type PageLanguage = { code: string; dir: 'ltr' | 'rtl'; messages: Readonly<Record<string, string>> };
/** Whom a landing page is drawn for: its language, and whether someone is signed in. */
export type LandingView = { language: PageLanguage; signedIn: boolean };
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
  private readonly drafts = new Map<Draft, { mtimeMs: number; html: string }>();

  private constructor(private readonly root: string) {}

  /** The drafts of a web build, or null for a build without them (the plain page is served then). */
  static find(root: string): LandingPages | null {
    return Object.values(DRAFTS).every((file) => existsSync(join(root, file))) ? new LandingPages(root) : null;
  }

  /** A draft, read again when the web app was built again while the server ran. */
  private async draft(draft: Draft): Promise<string> {
    const path = join(this.root, DRAFTS[draft]);
    const { mtimeMs } = await stat(path);
    const known = this.drafts.get(draft);
    if (known?.mtimeMs === mtimeMs) return known.html;
    const html = await readFile(path, 'utf8');
    if (!html.includes(HTML_TAG)) throw new Error(`${DRAFTS[draft]} has no ${HTML_TAG}`);
    this.drafts.set(draft, { mtimeMs, html });
    return html;
  }

  /** The page for `view`: each mark replaced by its message (the key itself when none has it). */
  async fill({ language, signedIn }: LandingView): Promise<string> {
    return (await this.draft(`${language.dir}-${signedIn ? 'member' : 'visitor'}`))
      .replace(HTML_TAG, `<html lang="${escapeHtml(language.code)}" dir="${language.dir}">`)
      .replace(MARK, (_mark, key: string) => escapeHtml(language.messages[key] ?? key));
  }

  /** Sends the page for `view`, compressed as the browser accepts; never cached by anyone, it follows the session and the language. */
  async send(request: FastifyRequest, reply: FastifyReply, view: LandingView): Promise<void> {
    // Compared by its text rather than keyed on the languages' cache generation: with the read cache
    // off (its bus down), a generation would not see another process's edit. Filling is a replace
    // over about 10 KB; compressing, the costly part, happens only when the text changed.
    const html = await this.fill(view);
    const key = `${view.language.code} ${String(view.signedIn)}`;
    let page = this.filled.get(key);
    if (page?.html !== html) {
      page = { html, brotli: brotliCompressSync(html), gzip: gzipSync(html) };
      this.filled.set(key, page);
    }
    const accepted = request.headers['accept-encoding'] ?? '';
    void reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding, cookie').type('text/html; charset=utf-8');
    if (/\bbr\b/.test(accepted)) void reply.header('content-encoding', 'br').send(page.brotli);
    else if (/\bgzip\b/.test(accepted)) void reply.header('content-encoding', 'gzip').send(page.gzip);
    else void reply.send(page.html);
  }
}
