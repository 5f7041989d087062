import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { PUBLIC_SETTINGS_KEYS, type Settings } from '@rideway/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { languageMap } from '../modules/languages/service';
import { getSettings } from '../modules/settings/service';

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
/**
 * The drafts' marks (apps/web/src/app/layout/draft-marks.tsx): %%key%% is a message,
 * %%setting:name%% a public setting's text, %%link:name%% a public setting as a link's address,
 * %%language:code%% and %%language:name%% the page's language; a part between %%if:condition%%
 * and %%end:condition%% is kept only when the condition holds.
 */
const MARK = /%%(?:(setting|link|language):)?([A-Za-z0-9_]+)%%/g;
const PART = /%%if:([A-Za-z0-9_:]+)%%([\s\S]*?)%%end:\1%%/g;
const STYLE = /<style[^>]*>[\s\S]*?<\/style>/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);

type PublicSetting = (typeof PUBLIC_SETTINGS_KEYS)[number];
const PUBLIC_SETTINGS: ReadonlySet<string> = new Set(PUBLIC_SETTINGS_KEYS);
const isPublicSetting = (name: string): name is PublicSetting => PUBLIC_SETTINGS.has(name);

/** The language a landing page is written in, with every message it may need (fallbacks merged in). */
export type PageLanguage = { code: string; dir: 'ltr' | 'rtl'; messages: Readonly<Record<string, string>> };
/** Whom a landing page is drawn for: its language, and whether someone is signed in. */
export type LandingView = { language: PageLanguage; signedIn: boolean };
/** What the page's header shows besides texts: the settings (only public ones are ever written) and the languages on offer. */
export type LandingData = { settings: Readonly<Settings>; languages: readonly { code: string; name: string }[] };
type Filled = { html: string; brotli: Buffer; gzip: Buffer };

/** A draft's mark that this server cannot fill: a build from another version; the plain page serves it. */
const unknownMark = (mark: string): Error => new Error(`the landing page's draft has a mark this server does not fill: ${mark}`);

/** A public setting's value; a draft never gets the admin-only ones. */
function publicSetting(data: LandingData, name: string): Settings[PublicSetting] {
  if (!isPublicSetting(name)) throw unknownMark(`setting ${name}`);
  return data.settings[name];
}

/** Only a web address is a link (a javascript: one, say, is not): the app's store links follow the same rule. */
function isWebLink(address: string): boolean {
  try {
    return ['https:', 'http:'].includes(new URL(address).protocol);
  } catch {
    return false;
  }
}

/** A part's condition: a public setting that has a value (the app shows a social link then), or more than one language on offer (the selector). */
function holds(condition: string, data: LandingData): boolean {
  if (condition === 'languages') return data.languages.length > 1;
  if (condition.startsWith('setting:')) return Boolean(publicSetting(data, condition.slice('setting:'.length)));
  throw unknownMark(`condition ${condition}`);
}

/** What a mark stands for, unescaped. */
function markText(kind: string | undefined, name: string, { language }: LandingView, data: LandingData): string {
  if (kind === undefined) return language.messages[name] ?? name;
  if (kind === 'language') {
    if (name === 'code') return language.code;
    if (name === 'name') return data.languages.find((offered) => offered.code === language.code)?.name ?? language.code;
    throw unknownMark(`language ${name}`);
  }
  const value = publicSetting(data, name);
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw unknownMark(`setting ${name} (not a text)`);
  const text = String(value);
  // A link whose setting is no web address goes nowhere: the browser would run a javascript: one.
  return kind === 'link' && !isWebLink(text) ? '#' : text;
}

/** A page to draw: for whom, and the settings and languages it is drawn with. */
export type LandingRequest = { view: LandingView; data: LandingData };

/** The public settings and the languages on offer, through the read cache (db/read-cache.ts), like the page's language. */
export async function landingData(db: Db): Promise<LandingData> {
  const [settings, languages] = await Promise.all([getSettings(db), languageMap(db, [])]);
  return { settings, languages: Object.entries(languages).map(([code, file]) => ({ code, name: file.name })) };
}

/**
 * Issue 21 point 5: the landing page with its first view already in the HTML (the header bar with
 * appName, its links, social links and language selector; the slogan, the booking form's
 * placeholder), so a phone paints all of it before the app's script has arrived. The build draws it
 * with each text as %%key%% and each setting as a mark of its own; this writes the visitor's
 * language and the admin's settings in (escaped: admins edit both), keeps the header's parts that
 * apply, and sets `lang` and `dir`. A filled page is kept, with its compressed copies, until its text changes.
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

  /**
   * The page for `view`: each part kept or left out, each mark replaced by its message (the key
   * itself when none has it), setting or language; throws on a mark it does not know.
   */
  async fill(view: LandingView, data: LandingData): Promise<string> {
    const { language, signedIn } = view;
    return (await this.draft(`${language.dir}-${signedIn ? 'member' : 'visitor'}`))
      .replace(HTML_TAG, `<html lang="${escapeHtml(language.code)}" dir="${language.dir}">`)
      // The draft's styles stand before the first element that uses each rule, once: a part left
      // out keeps its style elements, which the elements after it (another social link, the menu
      // button's icon) may use.
      .replace(PART, (_part, condition: string, inner: string) => (holds(condition, data) ? inner : (inner.match(STYLE) ?? []).join('')))
      .replace(MARK, (_mark, kind: string | undefined, name: string) => escapeHtml(markText(kind, name, view, data)));
  }

  /** Sends the page for `view`, compressed as the browser accepts; never cached by anyone, it follows the session and the language. */
  async send(request: FastifyRequest, reply: FastifyReply, { view, data }: LandingRequest): Promise<void> {
    // Compared by its text rather than keyed on the languages' or the settings' cache generation:
    // with the read cache off (its bus down), a generation would not see another process's edit.
    // Filling is a replace over about 30 KB; compressing, the costly part, happens only when the text changed.
    const html = await this.fill(view, data);
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
