import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createServer, type Plugin } from 'vite';
import type * as LandingShell from '../src/app/landing-shell';

const ROOT_ELEMENT = '<div id="root"></div>';
const TITLE = /<title>[^<]*<\/title>/;
/**
 * The built page with the landing page drawn in it, one per writing direction and per audience (a
 * signed-in user's form has a map); the server fills in the texts (apps/server/src/http/landing-page.ts).
 */
const DRAFTS = [
  { direction: 'ltr', signedIn: false, file: 'landing-ltr-visitor.html' },
  { direction: 'rtl', signedIn: false, file: 'landing-rtl-visitor.html' },
  { direction: 'ltr', signedIn: true, file: 'landing-ltr-member.html' },
  { direction: 'rtl', signedIn: true, file: 'landing-rtl-member.html' },
] as const;

/**
 * Issue 21 point 5: after the build, renders the landing page's first view (src/app/landing-shell.tsx)
 * through Vite's own module loader, so the same sources, settings and packages draw it as draw
 * the app, and writes the built index.html with it inside the root element, its styles in the
 * head and appName's mark as its title.
 */
export function landingShell(): Plugin {
  let root = '';
  let outDir = '';
  return {
    name: 'rideway-landing-shell',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const page = readFileSync(join(outDir, 'index.html'), 'utf8');
      if (!page.includes(ROOT_ELEMENT)) this.error(`index.html has no empty ${ROOT_ELEMENT} to draw the landing page in`);
      if (!TITLE.test(page)) this.error('index.html has no <title> to write appName in');
      if (!page.includes('</head>')) this.error('index.html has no </head> to write the styles before');
      // stylis-plugin-rtl is CommonJS with an ES default export: Vite's own loader, not Node's, gives the default.
      const loader = await createServer({ configFile: false, root, logLevel: 'error', appType: 'custom', server: { middlewareMode: true, hmr: false, ws: false }, ssr: { noExternal: ['stylis-plugin-rtl'] } });
      try {
        const { renderLandingShell, LANDING_TITLE } = (await loader.ssrLoadModule('/src/app/landing-shell.tsx')) as typeof LandingShell;
        // The title is the admin's appName too, as the app writes it once its settings are in.
        const titled = page.replace(TITLE, `<title>${LANDING_TITLE}</title>`);
        for (const { direction, signedIn, file } of DRAFTS) {
          const { head, body } = renderLandingShell(direction, signedIn);
          writeFileSync(join(outDir, file), titled.replace('</head>', `${head}</head>`).replace(ROOT_ELEMENT, `<div id="root">${body}</div>`));
        }
      } finally {
        await loader.close();
      }
    },
  };
}
