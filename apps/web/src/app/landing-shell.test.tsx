import { describe, expect, it } from 'vitest';
import { renderLandingShell } from './landing-shell';

/** The element in `html` that carries `attribute`, from its opening tag to the end of its own text. */
const tagWith = (html: string, attribute: string): string => /<[^<>]*>[^<]*/.exec(html.slice(html.lastIndexOf('<', html.indexOf(attribute))))?.[0] ?? '';

/**
 * Issue 21 point 5: the drafts speak the server's mark language (apps/server/src/http/landing-page.ts):
 * the header's setting-dependent parts stand between their %%if%% and %%end%% marks, so the server can
 * leave each out, and the controls that need the app say so until it has taken over.
 */
describe("the landing page's draft header", () => {
  const visitor = renderLandingShell('ltr', false).body;

  it("writes appName, the page's language and the social links as marks, each optional item in its part", () => {
    expect(visitor).toMatch(/<a [^>]*href="\/"[^>]*>%%setting:appName%%<\/a>/);
    for (const setting of ['FacebookHandle', 'TwitterHandle', 'InstagramHandle']) {
      expect(visitor).toMatch(new RegExp(`%%if:setting:${setting}%%(?:(?!%%end).)*href="%%link:${setting}%%"(?:(?!%%end).)*%%end:setting:${setting}%%`, 's'));
    }
    expect(visitor).toMatch(/%%if:languages%%(?:(?!%%end).)*>%%language:name%%<(?:(?!%%end).)*value="%%language:code%%"(?:(?!%%end).)*%%end:languages%%/s);
  });

  it("has no control that works before the app: the language selector and the menu button are aria-disabled", () => {
    expect(tagWith(visitor, 'role="combobox"')).toContain('aria-disabled="true"');
    expect(tagWith(visitor, 'aria-label="%%open_menu%%"')).toContain('aria-disabled="true"');
  });

  it("offers a visitor login/signup and a signed-in user the account, in either direction", () => {
    expect(visitor).toContain('>%%nav_login_signup%%</a>');
    expect(renderLandingShell('rtl', true).body).toContain('>%%nav_my_account%%</a>');
  });
});
