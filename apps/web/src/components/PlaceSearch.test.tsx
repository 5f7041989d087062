import type { Place } from '@rideway/domain';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { newPlaceSession } from '../api/places';
import { fakeApi, refusal } from '../test/fake-api';
import { queryWrapper } from '../test/render';
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

const rider = { status: 200, body: { user: { id: 'r1', usertype: 'rider' } } };
const savedPlaces = [
  { id: 3, description: 'Tower of London, London', lat: 51.5081, lng: -0.0759, count: 7, label: null, name: 'Gym' },
  { id: 1, description: '221B Baker Street, London', lat: 51.5238, lng: -0.1586, count: 4, label: 'home', name: null },
  { id: 2, description: 'Canary Wharf, London', lat: 51.5054, lng: -0.0235, count: 2, label: 'work', name: null },
  { id: 4, description: 'Paddington Station, London', lat: 51.5154, lng: -0.1755, count: 1, label: null, name: null },
];

describe('PlaceSearch: saved places first (issue 17 point 12)', () => {
  it('offers every saved place on focus, most used first, and picking one sets its point with no lookup', async () => {
    const calls = fakeApi({ 'GET /api/session': rider, 'GET /api/me/places': { status: 200, body: { places: savedPlaces } } });
    const chosen = vi.fn();
    const user = userEvent.setup();
    render(<Fields onChange={chosen} />, { wrapper: queryWrapper().wrapper });
    const drop = screen.getByRole('combobox', { name: 'Drop' });
    await waitFor(() => { expect(calls.some((call) => call.path === '/api/me/places')).toBe(true); });
    await user.click(drop);
    const list = await screen.findByRole('listbox');
    expect(within(list).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'GymTower of London, London',
      'place_home221B Baker Street, London',
      'place_workCanary Wharf, London',
      'Paddington Station, London',
    ]);
    expect(within(list).getByText('saved_places')).toBeTruthy();
    await user.click(within(list).getByRole('option', { name: /place_home/ }));
    expect(chosen).toHaveBeenCalledWith('drop', { lat: 51.5238, lng: -0.1586, add: '221B Baker Street, London' });
    expect(drop).toHaveProperty('value', '221B Baker Street, London');
    expect(calls.filter((call) => call.path.startsWith('/googleapis'))).toEqual([]);
  });

  it('while typing, shows the saved places that match (name, label or address) above the search results', async () => {
    fakeApi({
      'GET /api/session': rider,
      'GET /api/me/places': { status: 200, body: { places: savedPlaces } },
      'POST /googleapis-autocomplete': { status: 200, body: { searchResults: [{ place_id: 'p-1', description: 'Tower Bridge, London' }] } },
    });
    const user = userEvent.setup();
    render(<Fields onChange={vi.fn()} />, { wrapper: queryWrapper().wrapper });
    await user.type(screen.getByRole('combobox', { name: 'Pickup' }), 'tower');
    await screen.findByRole('option', { name: 'Tower Bridge, London' });
    const list = screen.getByRole('listbox');
    expect(within(list).getAllByRole('option').map((option) => option.textContent)).toEqual(['GymTower of London, London', 'Tower Bridge, London']);
    await user.clear(screen.getByRole('combobox', { name: 'Pickup' }));
    await user.type(screen.getByRole('combobox', { name: 'Pickup' }), 'place_wo');
    await waitFor(() => { expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]?.textContent).toBe('place_workCanary Wharf, London'); });
  });

  it('offers no saved places to a signed-in non-rider, and never asks for them', async () => {
    const calls = fakeApi({ 'GET /api/session': { status: 200, body: { user: { id: 'a1', usertype: 'admin' } } } });
    const user = userEvent.setup();
    render(<Fields onChange={vi.fn()} />, { wrapper: queryWrapper().wrapper });
    await waitFor(() => { expect(calls.some((call) => call.path === '/api/session')).toBe(true); });
    await user.click(screen.getByRole('combobox', { name: 'Pickup' }));
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(calls.some((call) => call.path === '/api/me/places')).toBe(false);
  });

  it('saves a chosen place as Work from the field; a refusal shows in the dialog', async () => {
    let taken = true;
    const calls = fakeApi({
      'GET /api/session': rider,
      'GET /api/me/places': { status: 200, body: { places: [] } },
      'POST /googleapis-autocomplete': { status: 200, body: { searchResults: [{ place_id: 'p-9', description: 'Shard, London' }] } },
      'POST /googleapis-getcoords': { status: 200, body: { coords: { lat: 51.5045, lng: -0.0865 }, address: 'The Shard, London' } },
      'POST /api/me/places': () => (taken ? refusal(409, 'saved_place_label_taken', 'label') : { status: 201, body: { place: { id: 9, description: 'The Shard, London', lat: 51.5045, lng: -0.0865, count: 1, label: 'work', name: null } } }),
    });
    const user = userEvent.setup();
    render(<Fields onChange={vi.fn()} />, { wrapper: queryWrapper().wrapper });
    await user.type(screen.getByRole('combobox', { name: 'Pickup' }), 'Shard');
    await user.click(await screen.findByRole('option', { name: 'Shard, London' }));
    await user.click(await screen.findByRole('button', { name: 'save_place' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'place_work' }));
    await user.click(within(dialog).getByRole('button', { name: 'save' }));
    expect(await within(dialog).findByText('saved_place_label_taken')).toBeTruthy();
    taken = false;
    await user.click(within(dialog).getByRole('button', { name: 'save' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(calls.filter((call) => call.method === 'POST' && call.path === '/api/me/places').map((call) => call.body)).toEqual([
      { description: 'The Shard, London', lat: 51.5045, lng: -0.0865, label: 'work', name: null },
      { description: 'The Shard, London', lat: 51.5045, lng: -0.0865, label: 'work', name: null },
    ]);
  });
});
