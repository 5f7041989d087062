import { createContext, useContext, type ReactNode } from 'react';

/**
 * Issue 21 point 5: the landing page's draft (app/landing-shell.tsx) is drawn at build time, before
 * any visitor's settings or languages are known, and the server fills it in for each visitor
 * (apps/server/src/http/landing-page.ts). Texts are i18next's %%key%% marks; these are the others.
 * Change them together with the server's.
 */
export const DRAFT_MARKS = {
  /** A public setting's text: `%%setting:appName%%`. */
  setting: (key: string) => `%%setting:${key}%%`,
  /** A public setting as a link's address, given only when it is a web address. */
  link: (key: string) => `%%link:${key}%%`,
  /** The visitor's language: its code or its name. */
  language: (part: 'code' | 'name') => `%%language:${part}%%`,
} as const;

/** What a part of the draft is kept for: a public setting that has a value, or more than one language on offer. */
export type DraftCondition = `setting:${string}` | 'languages';

/** True while the landing page's draft is drawn; the app itself never sets it. */
export const DraftContext = createContext(false);

/**
 * A part the server keeps only for a visitor for whom `when` holds (the draft cannot know whether
 * the admin set a Facebook link); in the app, its children as they are.
 */
export function DraftPart({ when, children }: { when: DraftCondition; children: ReactNode }) {
  if (!useContext(DraftContext)) return children;
  return (
    <>
      {`%%if:${when}%%`}
      {children}
      {`%%end:${when}%%`}
    </>
  );
}
