import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useInstallPrompt } from './install-prompt';

/** A browser's install offer as Chromium sends it: cancelable, with prompt() and userChoice. */
function offer(outcome: 'accepted' | 'dismissed' = 'accepted') {
  const prompt = vi.fn(() => Promise.resolve());
  const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), { prompt, userChoice: Promise.resolve({ outcome, platform: 'web' }) });
  act(() => { window.dispatchEvent(event); });
  return { event, prompt };
}

describe('the PWA install offer (issue 17, point 11)', () => {
  it('offers nothing until the browser does', () => {
    const { result } = renderHook(() => useInstallPrompt());
    expect(result.current.canInstall).toBe(false);
  });

  it('keeps the browser\'s offer for the app\'s button, shows it once on install, then drops it', async () => {
    const { result } = renderHook(() => useInstallPrompt());
    const { event, prompt } = offer();
    // Held back from the browser's own mini-infobar, for the button.
    expect(event.defaultPrevented).toBe(true);
    expect(result.current.canInstall).toBe(true);
    await act(() => result.current.install());
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(result.current.canInstall).toBe(false);
    // Nothing left to show: a second call does not prompt again.
    await act(() => result.current.install());
    expect(prompt).toHaveBeenCalledTimes(1);
  });

  it('drops the offer when the person dismisses the dialog too (an offer shows once)', async () => {
    const { result } = renderHook(() => useInstallPrompt());
    offer('dismissed');
    await act(() => result.current.install());
    expect(result.current.canInstall).toBe(false);
  });

  it('drops the offer once the app is installed some other way', () => {
    const { result } = renderHook(() => useInstallPrompt());
    offer();
    expect(result.current.canInstall).toBe(true);
    act(() => { window.dispatchEvent(new Event('appinstalled')); });
    expect(result.current.canInstall).toBe(false);
  });

  it('ignores an event of that name that is not an install offer', () => {
    const { result } = renderHook(() => useInstallPrompt());
    const plain = new Event('beforeinstallprompt', { cancelable: true });
    act(() => { window.dispatchEvent(plain); });
    expect(plain.defaultPrevented).toBe(false);
    expect(result.current.canInstall).toBe(false);
  });
});
