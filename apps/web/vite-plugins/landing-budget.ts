import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Issue 6: the JavaScript a visitor's browser loads before the landing page shows. */
const BUDGET_KB = 300;

/**
 * Prints the gzipped size of the entry chunk and everything it imports statically (the lazy
 * pages are left out: they load when opened), and fails the build above the budget.
 */
export function landingBudget(): Plugin {
  return {
    name: 'rideway-landing-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry);
      if (!entry || entry.type !== 'chunk') return;
      const seen = new Set<string>();
      const visit = (name: string): void => {
        if (seen.has(name)) return;
        seen.add(name);
        const chunk = bundle[name];
        if (chunk?.type === 'chunk') for (const imported of chunk.imports) visit(imported);
      };
      visit(entry.fileName);
      let bytes = 0;
      for (const name of seen) {
        const chunk = bundle[name];
        if (chunk?.type === 'chunk') bytes += gzipSync(chunk.code).length;
      }
      const kb = bytes / 1024;
      console.log(`landing page initial JavaScript: ${kb.toFixed(1)} KB gzipped (budget ${BUDGET_KB} KB)`);
      if (kb > BUDGET_KB) this.error(`the landing page's initial JavaScript is ${kb.toFixed(1)} KB gzipped, over the ${BUDGET_KB} KB budget`);
    },
  };
}
