/// <reference lib="webworker" />
/**
 * The app's service worker (vite-plugin-pwa's injectManifest strategy): Workbox precaches the
 * built shell (the list is injected at build) and serves it for client routes, as the generated
 * worker did, and issue 19 adds Web Push: a push shows a notification, a click opens its screen.
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { openTarget } from './push/notification-click';
import { pathOfNotification, showPush } from './push/show-push';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

// registerType autoUpdate: a new build takes over open tabs at once.
void self.skipWaiting();
clientsClaim();

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Client routes open the shell; the API, its files and the section 7 paths never do.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/(get_|googleapis-|validate_referrer|check_user_exists|user_signup|send_notification)/],
  }),
);

self.addEventListener('push', (event) => {
  const data = event.data;
  event.waitUntil(showPush(self.registration, () => data?.json() as unknown));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openTarget(self.clients, self.location.origin, pathOfNotification(event.notification.data)));
});
