import type { Place } from '@rideway/domain';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { newPlaceSession } from '../../api/places';
import { fakeApi } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { PlaceSearch } from './PlaceSearch';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Two place fields, as the booking form has them. */
function Fields({ onChange }: { onChange: (field: string, place: Place | null) => void }) {
  const [pickup, setPickup] = useState<Place | null>(null);
  const [drop, setDrop] = useState<Place | null>(null);
  return (
    <>
      <PlaceSearch label="Pickup" value={pickup} enabled onError={() => undefined} onChange={(place) => { setPickup(place); onChange('pickup', place); }} />
      <PlaceSearch label="Drop" value={drop} enabled onError={() => undefined} onChange={(place) => { setDrop(place); onChange('drop', place); }} />
    </>
  );
}

describe('PlaceSearch: one place search session per search (Places session tokens)', () => {
  it('sends one token with a search and its chosen place, then starts a new one; each field has its own', async () => {
    const calls = fakeApi({
      'POST /googleapis-autocomplete': (call) => {
        const { searchKeyword } = call.body as { searchKeyword: string };
        return { status: 200, body: { searchResults: [{ place_id: `id-${searchKeyword.split(' ')[0] ?? ''}`, description: `${searchKeyword} Street, London` }] } };
      },
      // A lookup slower than the search's debounce: the chosen text must not be searched meanwhile.
      'POST /googleapis-getcoords': () => new Promise((resolve) => { setTimeout(() => { resolve({ status: 200, body: { coords: { lat: 51.5, lng: -0.1 }, address: 'Chosen, London' } }); }, 600); }),
    });
    const chosen = vi.fn();
    const user = userEvent.setup();
    render(<Fields onChange={chosen} />, { wrapper: queryWrapper().wrapper });
    const searches = () => calls.filter((call) => call.path === '/googleapis-autocomplete').map((call) => call.body as { searchKeyword: string; sessiontoken?: string });
    const lookups = () => calls.filter((call) => call.path === '/googleapis-getcoords').map((call) => call.body as { place_id: string; sessiontoken?: string });

    const pickup = screen.getByRole('combobox', { name: 'Pickup' });
    await user.type(pickup, 'Baker');
    await waitFor(() => { expect(searches()).toHaveLength(1); });
    await user.type(pickup, ' St');
    await waitFor(() => { expect(searches()).toHaveLength(2); });
    const [first, second] = searches();
    expect(first?.sessiontoken).toMatch(UUID);
    expect(second?.sessiontoken).toBe(first?.sessiontoken);
    await user.click(await screen.findByRole('option', { name: 'Baker St Street, London' }));
    await waitFor(() => { expect(lookups()).toHaveLength(1); });
    expect(lookups()[0]).toEqual({ place_id: 'id-Baker', sessiontoken: first?.sessiontoken });
    await waitFor(() => { expect(chosen).toHaveBeenCalledWith('pickup', { lat: 51.5, lng: -0.1, add: 'Chosen, London' }); });
    // The chosen suggestion's text, in the field while its place was looked up, was not searched.
    expect(searches()).toHaveLength(2);

    // The drop field's search is a session of its own.
    await user.type(screen.getByRole('combobox', { name: 'Drop' }), 'Tower');
    await waitFor(() => { expect(searches()).toHaveLength(3); });
    const drop = searches()[2]?.sessiontoken;
    expect(drop).toMatch(UUID);
    expect(drop).not.toBe(first?.sessiontoken);

    // Searching the pickup again, typed over its choice, is a new session too.
    await user.tripleClick(pickup);
    await user.keyboard('Paddington');
    await waitFor(() => { expect(searches().filter((search) => search.searchKeyword === 'Paddington')).toHaveLength(1); });
    const again = searches().find((search) => search.searchKeyword === 'Paddington')?.sessiontoken;
    expect(again).toMatch(UUID);
    expect([first?.sessiontoken, drop]).not.toContain(again);
  });

  it('makes version 4 UUIDs in a secure context and over plain http on a LAN address, where randomUUID is missing', () => {
    const secure = window.isSecureContext;
    try {
      for (const context of [true, false]) {
        Object.defineProperty(window, 'isSecureContext', { value: context, configurable: true });
        const tokens = Array.from({ length: 50 }, newPlaceSession);
        expect(tokens.every((token) => UUID.test(token))).toBe(true);
        expect(new Set(tokens).size).toBe(50);
      }
    } finally {
      Object.defineProperty(window, 'isSecureContext', { value: secure, configurable: true });
    }
  });
});
