import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VIRTUALISE_FROM, VirtualList } from './VirtualList';

const items = (count: number) => Array.from({ length: count }, (_, i) => ({ id: `b${String(i)}`, label: `Booking ${String(i)}` }));
const list = (count: number) => <VirtualList items={items(count)} itemKey={(item) => item.id} render={(item) => <article>{item.label}</article>} />;

describe('VirtualList (issue 21 point 5)', () => {
  // jsdom lays nothing out: every drawn card measures as a phone's booking card does, 200 px tall.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(200);
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ x: 0, y: 0, top: 0, left: 0, bottom: 200, right: 375, width: 375, height: 200, toJSON: () => ({}) });
  });
  afterEach(() => { vi.restoreAllMocks(); });

  it('draws a short list whole, with no virtual container', () => {
    render(list(VIRTUALISE_FROM - 1));
    expect(screen.getAllByRole('article')).toHaveLength(VIRTUALISE_FROM - 1);
    expect(screen.queryByTestId('virtual-list')).toBeNull();
  });

  it('draws only the first screenful of a long list, in a container as tall as the whole list', () => {
    render(list(500));
    const drawn = screen.getAllByRole('article');
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(30);
    expect(drawn[0]?.textContent).toBe('Booking 0');
    expect(screen.queryByText('Booking 499')).toBeNull();
    // 500 estimated items and their gaps: the page scrolls as if all were there.
    expect(Number.parseInt(screen.getByTestId('virtual-list').style.height, 10)).toBeGreaterThan(500 * 200);
  });
});
