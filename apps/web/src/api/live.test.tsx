import type { LiveClientMessage, LiveServerMessage } from '@rideway/contract';
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from './live';

/** A browser WebSocket the test plays the server of: it opens, speaks and drops when told. */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static opened: FakeSocket[] = [];

  readyState = FakeSocket.CONNECTING;
  readonly sent: LiveClientMessage[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }

  send(data: string): void {
    if (this.readyState !== FakeSocket.OPEN) throw new Error('sent before the socket opened');
    this.sent.push(JSON.parse(data) as LiveClientMessage);
  }

  close(): void {
    this.readyState = FakeSocket.CLOSED;
  }

  // The server's side.
  accept(): void {
    this.readyState = FakeSocket.OPEN;
    act(() => { this.onopen?.(); });
  }

  say(message: LiveServerMessage): void {
    act(() => { this.onmessage?.({ data: JSON.stringify(message) }); });
  }

  /** Closes from the server's side: 1006 is a dropped connection, 4401 an ended session. */
  drop(code = 1006): void {
    this.readyState = FakeSocket.CLOSED;
    act(() => { this.onclose?.({ code }); });
  }
}

const newest = (): FakeSocket => {
  const socket = FakeSocket.opened.at(-1);
  if (!socket) throw new Error('no socket was opened');
  return socket;
};

/** A logged event on the user's topic, with its cursor. */
const withdrawn = (seq: number, bookingId = `b${String(seq)}`): LiveServerMessage => ({ type: 'event', topic: 'user:me', event: 'offer_withdrawn', data: { bookingId }, seq });

/** The live module anew for each test: it keeps one connection per tab. */
async function follow(topic: string | null = 'user:me') {
  const { useLiveTopic } = await import('./live');
  const events: LiveEvent[] = [];
  const hook = renderHook(({ followed }: { followed: string | null }) => { useLiveTopic(followed, (event) => { events.push(event); }); }, { initialProps: { followed: topic } });
  return { useLiveTopic, events, hook };
}

beforeEach(() => {
  vi.resetModules();
  FakeSocket.opened = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.useFakeTimers();
});

describe('the live client (docs/realtime.md)', () => {
  it('opens one socket at /api/ws and subscribes once it is open', async () => {
    await follow();
    expect(FakeSocket.opened.map((socket) => socket.url)).toEqual([`ws://${location.host}/api/ws`]);
    expect(newest().sent).toEqual([]);
    newest().accept();
    expect(newest().sent).toEqual([{ type: 'subscribe', topic: 'user:me' }]);
  });

  it('hands each event of the topic to its follower, and none of another topic', async () => {
    const { events } = await follow();
    const socket = newest();
    socket.accept();
    socket.say({ type: 'subscribed', topic: 'user:me', seq: 4 });
    socket.say(withdrawn(5));
    socket.say({ type: 'event', topic: 'drivers:live', event: 'offline', data: { uid: 'd1' } });
    expect(events).toEqual([withdrawn(5)]);
  });

  it('after a drop reconnects and resumes from the newest cursor it saw', async () => {
    const { events } = await follow();
    const first = newest();
    first.accept();
    first.say({ type: 'subscribed', topic: 'user:me', seq: 4 });
    first.say(withdrawn(7));
    // A replayed older event does not move the cursor back.
    first.say(withdrawn(6));
    first.drop();
    expect(FakeSocket.opened).toHaveLength(1);
    act(() => { vi.advanceTimersByTime(499); });
    expect(FakeSocket.opened).toHaveLength(1);
    act(() => { vi.advanceTimersByTime(1); });
    expect(FakeSocket.opened).toHaveLength(2);
    const second = newest();
    second.accept();
    expect(second.sent).toEqual([{ type: 'subscribe', topic: 'user:me', since: 7 }]);
    second.say(withdrawn(8));
    expect(events.map((event) => event.seq)).toEqual([7, 6, 8]);
  });

  it('resumes from the subscription\'s cursor when no event came before the drop', async () => {
    await follow();
    newest().accept();
    newest().say({ type: 'subscribed', topic: 'user:me', seq: 41 });
    newest().drop();
    act(() => { vi.advanceTimersByTime(500); });
    newest().accept();
    expect(newest().sent).toEqual([{ type: 'subscribe', topic: 'user:me', since: 41 }]);
  });

  it('waits longer after each failed attempt, up to 10 s, and starts over once connected', async () => {
    await follow();
    const waits: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const before = FakeSocket.opened.length;
      newest().drop();
      let waited = 0;
      while (FakeSocket.opened.length === before) {
        act(() => { vi.advanceTimersByTime(100); });
        waited += 100;
      }
      waits.push(waited);
    }
    expect(waits).toEqual([500, 1000, 2000, 5000, 10_000, 10_000]);
    newest().accept();
    newest().drop();
    act(() => { vi.advanceTimersByTime(500); });
    expect(FakeSocket.opened).toHaveLength(8);
  });

  it('shares one subscription between screens on a topic, and keeps it until the last one leaves', async () => {
    const { useLiveTopic, events } = await follow();
    const other: LiveEvent[] = [];
    const second = renderHook(() => { useLiveTopic('user:me', (event) => { other.push(event); }); });
    expect(FakeSocket.opened).toHaveLength(1);
    const socket = newest();
    socket.accept();
    expect(socket.sent).toEqual([{ type: 'subscribe', topic: 'user:me' }]);
    socket.say(withdrawn(1));
    second.unmount();
    expect(socket.sent).toHaveLength(1);
    socket.say(withdrawn(2));
    expect(events.map((event) => event.seq)).toEqual([1, 2]);
    expect(other.map((event) => event.seq)).toEqual([1]);
  });

  it('subscribes a topic followed on an open socket at once, and unsubscribes it when left', async () => {
    const { useLiveTopic } = await follow();
    const socket = newest();
    socket.accept();
    const map = renderHook(() => { useLiveTopic('drivers:live', () => undefined); });
    expect(socket.sent.at(-1)).toEqual({ type: 'subscribe', topic: 'drivers:live' });
    map.unmount();
    expect(socket.sent.at(-1)).toEqual({ type: 'unsubscribe', topic: 'drivers:live' });
    expect(socket.readyState).toBe(FakeSocket.OPEN);
    expect(FakeSocket.opened).toHaveLength(1);
  });

  it('forgets a topic\'s cursor once nobody follows it', async () => {
    const { useLiveTopic } = await follow('drivers:live');
    const socket = newest();
    socket.accept();
    const wallet = renderHook(() => { useLiveTopic('user:me', () => undefined); });
    socket.say(withdrawn(9));
    wallet.unmount();
    renderHook(() => { useLiveTopic('user:me', () => undefined); });
    expect(socket.sent.at(-1)).toEqual({ type: 'subscribe', topic: 'user:me' });
  });

  it('closes the socket when the last screen leaves, and does not come back', async () => {
    const { hook } = await follow();
    const socket = newest();
    socket.accept();
    hook.unmount();
    expect(socket.sent.at(-1)).toEqual({ type: 'unsubscribe', topic: 'user:me' });
    expect(socket.readyState).toBe(FakeSocket.CLOSED);
    socket.drop();
    act(() => { vi.advanceTimersByTime(60_000); });
    expect(FakeSocket.opened).toHaveLength(1);
  });

  it('does not reconnect a socket whose session ended (4401), and tells the app to sign out', async () => {
    const { useLiveTopic } = await follow();
    const { onLiveSessionEnded } = await import('./live');
    const ended = vi.fn();
    const stop = onLiveSessionEnded(ended);
    newest().accept();
    newest().drop(4401);
    act(() => { vi.advanceTimersByTime(60_000); });
    expect(FakeSocket.opened).toHaveLength(1);
    expect(ended).toHaveBeenCalledTimes(1);
    // Signed in again, the next screen that follows a topic opens a new socket.
    renderHook(() => { useLiveTopic('drivers:live', () => undefined); });
    expect(FakeSocket.opened).toHaveLength(2);
    stop();
    newest().drop(4401);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it("leaves the sign-out to this tab's own logout: its 4401 does not reach the listeners", async () => {
    await follow();
    const { onLiveSessionEnded, expectLiveSessionEnd } = await import('./live');
    const ended = vi.fn();
    const stop = onLiveSessionEnded(ended);
    newest().accept();
    expectLiveSessionEnd(true);
    newest().drop(4401);
    act(() => { vi.advanceTimersByTime(60_000); });
    expect(ended).not.toHaveBeenCalled();
    expect(FakeSocket.opened).toHaveLength(1);
    expectLiveSessionEnd(false);
    stop();
  });

  it('cancels a pending reconnect when the last screen leaves', async () => {
    const { hook } = await follow();
    newest().drop();
    hook.unmount();
    act(() => { vi.advanceTimersByTime(60_000); });
    expect(FakeSocket.opened).toHaveLength(1);
  });

  it('follows nothing for a null topic', async () => {
    await follow(null);
    expect(FakeSocket.opened).toEqual([]);
  });

  it('hands each event to the newest handler the screen rendered with', async () => {
    const { useLiveTopic } = await import('./live');
    const seen: string[] = [];
    const { rerender } = renderHook(({ name }: { name: string }) => { useLiveTopic('user:me', () => { seen.push(name); }); }, { initialProps: { name: 'first' } });
    newest().accept();
    rerender({ name: 'second' });
    newest().say(withdrawn(1));
    expect(seen).toEqual(['second']);
    expect(FakeSocket.opened).toHaveLength(1);
  });
});
