import { Stack } from '@mui/material';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

/** Below this many items a list is drawn whole: nothing to gain, and find-in-page sees every item. */
export const VIRTUALISE_FROM = 40;
/** Items drawn beyond the screen's edges, so a quick scroll does not show blanks. */
const OVERSCAN = 6;
/** A first guess of an item's height; each is measured once drawn. */
const ESTIMATED_HEIGHT_PX = 220;
/** The gap between items, as the Stack's spacing={2} of the short list. */
const GAP_PX = 16;

/**
 * Issue 21 point 5: a long list of cards of varying height (a booking history holds up to 500)
 * draws only what the window shows, plus a few either side; the page keeps its own scroll bar,
 * and each item's real height is measured as it is drawn. A short list is a plain Stack.
 */
export function VirtualList<T>({ items, itemKey, render }: { items: readonly T[]; itemKey: (item: T) => string; render: (item: T) => ReactNode }) {
  if (items.length < VIRTUALISE_FROM) {
    return <Stack spacing={2}>{items.map((item) => <Fragment key={itemKey(item)}>{render(item)}</Fragment>)}</Stack>;
  }
  return <WindowList items={items} itemKey={itemKey} render={render} />;
}

function WindowList<T>({ items, itemKey, render }: { items: readonly T[]; itemKey: (item: T) => string; render: (item: T) => ReactNode }) {
  const listRef = useRef<HTMLDivElement>(null);
  // Where the list starts on the page: the window's scroll is measured from there.
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    setOffset((listRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY);
  }, []);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => ESTIMATED_HEIGHT_PX,
    overscan: OVERSCAN,
    gap: GAP_PX,
    scrollMargin: offset,
    getItemKey: (index) => itemKey(items[index] as T),
  });
  return (
    // Inline styles, not sx: these change with every scroll, and each sx value would be a new CSS class.
    <div ref={listRef} data-testid="virtual-list" style={{ position: 'relative', height: `${String(virtualizer.getTotalSize())}px` }}>
      {virtualizer.getVirtualItems().map((row) => (
        <div
          key={row.key}
          data-index={row.index}
          ref={virtualizer.measureElement}
          style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${String(row.start - virtualizer.options.scrollMargin)}px)` }}
        >
          {render(items[row.index] as T)}
        </div>
      ))}
    </div>
  );
}
