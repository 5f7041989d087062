import { useCallback, useSyncExternalStore } from 'react';

/** Chromium's install offer for a PWA; not in TypeScript's DOM types, as no standard defines it. */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

const isInstallPrompt = (event: Event): event is BeforeInstallPromptEvent =>
  typeof (event as Partial<BeforeInstallPromptEvent>).prompt === 'function' && (event as Partial<BeforeInstallPromptEvent>).userChoice instanceof Promise;

let offered: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const set = (event: BeforeInstallPromptEvent | null): void => {
  offered = event;
  for (const listener of listeners) listener();
};

/**
 * Listens from the app's start, not from the landing page's: the browser offers the install once,
 * perhaps while the visitor reads another page. The offer is kept (its mini-infobar held back) for
 * the app's own button; once installed there is nothing left to offer.
 */
export function listenForInstallPrompt(target: Window): () => void {
  const onOffer = (event: Event) => {
    if (!isInstallPrompt(event)) return;
    event.preventDefault();
    set(event);
  };
  const onInstalled = () => { set(null); };
  target.addEventListener('beforeinstallprompt', onOffer);
  target.addEventListener('appinstalled', onInstalled);
  return () => {
    target.removeEventListener('beforeinstallprompt', onOffer);
    target.removeEventListener('appinstalled', onInstalled);
  };
}

if (typeof window !== 'undefined') listenForInstallPrompt(window);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
};

/**
 * Whether the browser offers to install the app, and the call that shows its dialog. An offer can
 * be shown once only, so it is dropped whatever the person chooses; the browser may offer again.
 */
export function useInstallPrompt(): { canInstall: boolean; install: () => Promise<void> } {
  const current = useSyncExternalStore(subscribe, () => offered, () => null);
  const install = useCallback(async () => {
    if (!current) return;
    set(null);
    await current.prompt();
    await current.userChoice;
  }, [current]);
  return { canInstall: current !== null, install };
}
