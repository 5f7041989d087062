import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, refusal } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { SavedPlacesCard } from './SavedPlacesCard';

const places = [
  { id: 1, description: 'Tower of London, London', lat: 51.5081, lng: -0.0759, count: 3, label: null, name: null },
  { id: 2, description: 'Paddington Station, London', lat: 51.5154, lng: -0.1755, count: 1, label: 'work', name: null },
];

describe('SavedPlacesCard (issue 17 point 12)', () => {
  it('lists the places, names one Home, shows a refusal in the dialog, and removes one', async () => {
    let stored = places;
    const calls = fakeApi({
      'GET /api/me/places': () => ({ status: 200, body: { places: stored } }),
      'PATCH /api/me/places/1': (call) => {
        const { label } = call.body as { label: string | null };
        if (label === 'work') return refusal(409, 'saved_place_label_taken', 'label');
        stored = stored.map((place) => (place.id === 1 ? { ...place, label, name: null } : place));
        return { status: 200, body: { place: stored[0] } };
      },
      'DELETE /api/me/places/2': () => {
        stored = stored.filter((place) => place.id !== 2);
        return { status: 204 };
      },
    });
    const user = userEvent.setup();
    render(<SavedPlacesCard />, { wrapper: queryWrapper().wrapper });
    const list = await screen.findByRole('list', { name: 'saved_places' });
    await waitFor(() => { expect(within(list).getAllByRole('listitem')).toHaveLength(2); });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Tower of London, Londonplace_used', 'place_workPaddington Station, London · place_used']);

    // Without language files a button's name is its key: the first row's buttons are the Tower's.
    const [editTower] = within(list).getAllByRole('button', { name: 'edit_place' });
    await user.click(editTower ?? list);
    let dialog = await screen.findByRole('dialog', { name: 'name_place' });
    // Work is another place's already: the server's refusal shows in the dialog, which stays open.
    await user.click(within(dialog).getByRole('button', { name: 'place_work' }));
    await user.click(within(dialog).getByRole('button', { name: 'save' }));
    expect(await within(dialog).findByText('saved_place_label_taken')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'place_home' }));
    await user.click(within(dialog).getByRole('button', { name: 'save' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    await waitFor(() => { expect(within(list).getAllByRole('listitem')[0]?.textContent).toBe('place_homeTower of London, London · place_used'); });
    expect(await screen.findByText('place_saved')).toBeTruthy();

    // A name of the rider's own; a blank one leaves the place unnamed.
    await user.click(within(list).getAllByRole('button', { name: 'edit_place' })[0] ?? list);
    dialog = await screen.findByRole('dialog', { name: 'name_place' });
    await user.click(within(dialog).getByRole('button', { name: 'place_other' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'place_name' }), '   ');
    await user.click(within(dialog).getByRole('button', { name: 'save' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });

    await user.click(within(list).getAllByRole('button', { name: 'remove_place_named' })[1] ?? list);
    await waitFor(() => { expect(within(list).getAllByRole('listitem')).toHaveLength(1); });
    expect(await screen.findByText('place_removed')).toBeTruthy();
    expect(calls.filter((call) => call.method !== 'GET').map((call) => [call.method, call.path, call.body])).toEqual([
      ['PATCH', '/api/me/places/1', { label: 'work', name: null }],
      ['PATCH', '/api/me/places/1', { label: 'home', name: null }],
      ['PATCH', '/api/me/places/1', { label: null, name: null }],
      ['DELETE', '/api/me/places/2', undefined],
    ]);
  });

  it('says so when there are none', async () => {
    fakeApi({ 'GET /api/me/places': { status: 200, body: { places: [] } } });
    render(<SavedPlacesCard />, { wrapper: queryWrapper().wrapper });
    expect(await screen.findByText('no_saved_places')).toBeTruthy();
  });
});
