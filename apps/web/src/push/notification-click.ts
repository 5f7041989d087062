/**
 * Issue 19: what a click on one of the app's notifications does, written against the few parts
 * of the service worker's `clients` it uses, so it is unit-tested without a browser.
 */

/** The parts of a WindowClient used here. */
export type WindowLike = { url: string; focus: () => Promise<unknown>; navigate: (url: string) => Promise<WindowLike | null> };
/** The parts of the worker's Clients used here. */
export type ClientsLike = {
  matchAll: (options: { type: 'window'; includeUncontrolled: boolean }) => Promise<readonly WindowLike[]>;
  openWindow: (url: string) => Promise<unknown>;
};

/**
 * Opens `path` of `origin`: in a tab of the app already open (one already showing it, else the
 * first of the app), focused first (a click lets a worker focus a window only for a moment) and
 * then taken to the target, else in a new window. A tab the worker does not control cannot be
 * navigated by it (navigate rejects or answers null): then a new window opens, so a click never
 * does nothing.
 */
export async function openTarget(clients: ClientsLike, origin: string, path: string): Promise<void> {
  const target = new URL(path, origin);
  // Only this site: a path that would leave it opens the app's first page instead.
  const url = target.origin === origin ? target.href : new URL('/', origin).href;
  const windows = (await clients.matchAll({ type: 'window', includeUncontrolled: true })).filter((client) => new URL(client.url).origin === origin);
  const tab = windows.find((client) => client.url === url) ?? windows[0];
  if (tab) {
    try {
      await tab.focus();
      if (tab.url === url || (await tab.navigate(url))) return;
    } catch {
      // Not controlled by this worker, or not focusable: a new window below.
    }
  }
  await clients.openWindow(url);
}
