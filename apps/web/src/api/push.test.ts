import { afterEach, describe, expect, it, vi } from 'vitest';
import { applicationServerKey, disableWebPush, enableWebPush } from './push';

/**
 * Issue 19: the browser's side of Web Push played by fakes of the Notification, service worker
 * and PushManager interfaces, the server by a fake fetch that records each call.
 */
const VAPID = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
const SUBSCRIPTION = { endpoint: 'https://push.example/send/abc', keys: { p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM', auth: 'tBHItJI5svbpez7KI4CCXg' } };

type Call = { path: string; method: string; body: unknown };

type BrowserState = { permission?: NotificationPermission; answer?: NotificationPermission; existing?: { key: Uint8Array } | null };

function browser({ permission = 'default', answer = 'granted', existing = null }: BrowserState = {}) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', (path: string, init: RequestInit = {}) => {
    calls.push({ path, method: init.method ?? 'GET', body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
    if (path === '/api/push/vapid-public-key') return Promise.resolve(new Response(JSON.stringify({ publicKey: VAPID }), { status: 200 }));
    return Promise.resolve(new Response(path.endsWith('subscriptions') && init.method === 'POST' ? JSON.stringify({ kind: 'webpush' }) : null, { status: init.method === 'DELETE' ? 204 : 201 }));
  });
  const notification = { permission, requestPermission: vi.fn(() => Promise.resolve(answer)) };
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', function PushManager() { /* the interface exists */ });
  const subscription = (key: Uint8Array) => ({
    endpoint: SUBSCRIPTION.endpoint,
    options: { applicationServerKey: key.buffer },
    toJSON: () => SUBSCRIPTION,
    unsubscribe: vi.fn(() => Promise.resolve(true)),
  });
  const current = existing ? subscription(existing.key) : null;
  const pushManager = {
    getSubscription: vi.fn(() => Promise.resolve(current)),
    subscribe: vi.fn((options: { applicationServerKey: Uint8Array; userVisibleOnly: boolean }) => Promise.resolve(subscription(options.applicationServerKey))),
  };
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { getRegistration: () => Promise.resolve({ pushManager }), ready: new Promise(() => undefined) } });
  return { calls, notification, pushManager, current };
}

describe('the app\'s Web Push subscription (issue 19)', () => {
  afterEach(() => { Reflect.deleteProperty(navigator, 'serviceWorker'); });

  it('asks when told to, then subscribes with the server\'s VAPID key and hands the subscription to the server', async () => {
    const { calls, notification, pushManager } = browser();
    expect(await enableWebPush({ ask: true })).toBe('subscribed');
    expect(notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(pushManager.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: applicationServerKey(VAPID) });
    expect(calls.at(-1)).toEqual({ path: '/api/push/subscriptions', method: 'POST', body: { kind: 'webpush', subscription: SUBSCRIPTION } });
  });

  it('never asks without being told to: an undecided permission subscribes nothing', async () => {
    const { calls, notification, pushManager } = browser();
    expect(await enableWebPush({ ask: false })).toBe('denied');
    expect(notification.requestPermission).not.toHaveBeenCalled();
    expect(pushManager.subscribe).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
  });

  it('uses a permission already granted without asking again', async () => {
    const { notification } = browser({ permission: 'granted' });
    expect(await enableWebPush({ ask: false })).toBe('subscribed');
    expect(notification.requestPermission).not.toHaveBeenCalled();
  });

  it('stops when the user refuses', async () => {
    const { calls, pushManager } = browser({ answer: 'denied' });
    expect(await enableWebPush({ ask: true })).toBe('denied');
    expect(pushManager.subscribe).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
  });

  it('replaces a subscription made with another key (the server\'s keys changed), and keeps one made with this key', async () => {
    const stale = browser({ permission: 'granted', existing: { key: new Uint8Array([4, 1, 2, 3]) } });
    expect(await enableWebPush({ ask: false })).toBe('subscribed');
    expect(stale.current?.unsubscribe).toHaveBeenCalled();
    expect(stale.pushManager.subscribe).toHaveBeenCalled();
    const fresh = browser({ permission: 'granted', existing: { key: applicationServerKey(VAPID) } });
    expect(await enableWebPush({ ask: false })).toBe('subscribed');
    expect(fresh.current?.unsubscribe).not.toHaveBeenCalled();
    expect(fresh.pushManager.subscribe).not.toHaveBeenCalled();
    expect(fresh.calls.at(-1)?.body).toEqual({ kind: 'webpush', subscription: SUBSCRIPTION });
  });

  it('answers failed, never throws, when the browser finds no push service', async () => {
    const { pushManager } = browser({ permission: 'granted' });
    pushManager.subscribe.mockRejectedValueOnce(new DOMException('Registration failed - push service error', 'AbortError'));
    expect(await enableWebPush({ ask: false })).toBe('failed');
  });

  it('answers unsupported in a browser without Web Push', async () => {
    vi.stubGlobal('PushManager', undefined);
    Reflect.deleteProperty(window, 'PushManager');
    expect(await enableWebPush({ ask: true })).toBe('unsupported');
  });

  it('on sign-out, tells the server to forget this browser, then drops the subscription', async () => {
    const { calls, current } = browser({ permission: 'granted', existing: { key: applicationServerKey(VAPID) } });
    await disableWebPush();
    expect(calls).toEqual([{ path: '/api/push/subscriptions', method: 'DELETE', body: { endpoint: SUBSCRIPTION.endpoint } }]);
    expect(current?.unsubscribe).toHaveBeenCalled();
  });

  it('signs out quietly with no subscription', async () => {
    const { calls } = browser({ permission: 'granted' });
    await expect(disableWebPush()).resolves.toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('reads the base64url VAPID key as its 65 bytes', () => {
    const bytes = applicationServerKey(VAPID);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
  });
});
