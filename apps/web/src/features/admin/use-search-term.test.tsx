import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSearchTerm } from './use-search-term';

function Probe() {
  const { term, typed, setTyped } = useSearchTerm();
  const location = useLocation();
  return (
    <>
      <input aria-label="search" value={typed} onChange={(event) => { setTyped(event.target.value); }} />
      <output data-testid="term">{term}</output>
      <output data-testid="url">{location.search}</output>
    </>
  );
}

const start = (url: string) => {
  const router = createMemoryRouter([{ path: '/riders', element: <Probe /> }], { initialEntries: ['/other', url], initialIndex: 1 });
  render(<RouterProvider router={router} />);
  return router;
};

const type = (text: string) => {
  fireEvent.change(screen.getByLabelText('search'), { target: { value: text } });
};

describe("the users page's search term in the address (issue 20 point 6)", () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('starts from the address, so a reload keeps the search', () => {
    start('/riders?search=susie');
    expect(screen.getByLabelText('search')).toHaveProperty('value', 'susie');
    expect(screen.getByTestId('term').textContent).toBe('susie');
  });

  it('sends the term once typing pauses, replacing the history entry, and drops it when cleared', () => {
    const router = start('/riders?search=a');
    type('55');
    type('557 12');
    act(() => { vi.advanceTimersByTime(299); });
    expect(screen.getByTestId('term').textContent).toBe('a');
    act(() => { vi.advanceTimersByTime(1); });
    expect(screen.getByTestId('term').textContent).toBe('557 12');
    expect(screen.getByTestId('url').textContent).toBe('?search=557+12');
    // Replaced, not pushed: going back leaves the users page instead of stepping through each term.
    expect(router.state.historyAction).toBe('REPLACE');
    type('  ');
    act(() => { vi.advanceTimersByTime(300); });
    expect(screen.getByTestId('url').textContent).toBe('');
  });
});
