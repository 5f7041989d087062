import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { startingSession } from './api/session';
import { App, Starting } from './app/App';
import { startWithSession } from './app/Providers';
import { startI18n } from './i18n/languages';

const container = document.getElementById('root');
if (container) {
  const root = createRoot(container);
  // The landing page arrives already drawn by the server (issue 21 point 5): it stays until the
  // app's first render replaces it. Any other page shows a spinner while the language files load.
  if (!container.hasChildNodes()) root.render(<Starting />);
  // The session is asked for beside the languages, so the first render draws the page for who is
  // there (a rider's booking form has a map a visitor's has not) and nothing moves after it.
  Promise.all([startI18n(), startingSession()]).then(
    ([languages, user]) => {
      startWithSession(user);
      // The first render is a transition, so React yields to the browser every few milliseconds
      // instead of holding the main thread for the whole tree (a phone's blocking time).
      startTransition(() => { root.render(<StrictMode><App languages={languages} /></StrictMode>); });
    },
    () => { root.render(<p role="alert">Language fetch failed</p>); },
  );
}
