import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { sessionQuery } from './api/session';
import { settingsQuery } from './api/settings';
import { App, Starting } from './app/App';
import { queryClient } from './app/query-client';
import { createAppRouter } from './app/router';
import { startI18n } from './i18n/languages';

const container = document.getElementById('root');
if (container) {
  const root = createRoot(container);
  // The landing page arrives already drawn by the server (issue 21 point 5): it stays until the
  // app's first render replaces it. Any other page shows a spinner while the language files load.
  if (!container.hasChildNodes()) root.render(<Starting />);
  // The session and the settings are asked for beside the languages, so the first render draws the
  // page for who is there (a rider's booking form has a map a visitor's has not) with appName and
  // the settings' links in the header, and nothing moves or renders again after it. When either
  // cannot be asked for, the app's own query asks again as it renders.
  Promise.all([startI18n(), queryClient.query(sessionQuery).catch(() => undefined), queryClient.query(settingsQuery).catch(() => undefined)]).then(
    ([languages]) => {
      const router = createAppRouter();
      // The first render is a transition, so React yields to the browser every few milliseconds
      // instead of holding the main thread for the whole tree (a phone's blocking time).
      startTransition(() => { root.render(<StrictMode><App languages={languages} router={router} /></StrictMode>); });
    },
    () => { root.render(<p role="alert">Language fetch failed</p>); },
  );
}
