import { describe, expect, it } from 'vitest';
import { MAX_PLACE_NAME_LENGTH, nearestSavedPlace, placeDescriptionOf, placeNamingOf, placeToMakeRoom } from './saved-places';

describe('saved places (issue 17 point 12)', () => {
  it('names a place with a label, a name of its own, or neither', () => {
    expect(placeNamingOf({ label: 'home' })).toEqual({ ok: true, value: { label: 'home', name: null } });
    expect(placeNamingOf({ name: '  Gym ' })).toEqual({ ok: true, value: { label: null, name: 'Gym' } });
    expect(placeNamingOf({ name: null })).toEqual({ ok: true, value: { label: null, name: null } });
    expect(placeNamingOf({})).toEqual({ ok: true, value: { label: null, name: null } });
  });

  it('reads a name "Home" or "Work" in any case as that label, so a label cannot come in twice by name', () => {
    expect(placeNamingOf({ name: ' HOME ' })).toEqual({ ok: true, value: { label: 'home', name: null } });
    expect(placeNamingOf({ name: 'work' })).toEqual({ ok: true, value: { label: 'work', name: null } });
    expect(placeNamingOf({ label: 'work', name: 'Work' })).toEqual({ ok: true, value: { label: 'work', name: null } });
    expect(placeNamingOf({ name: 'Homework' })).toEqual({ ok: true, value: { label: null, name: 'Homework' } });
  });

  it('refuses blank, too long and control-character names, and a label with another name', () => {
    for (const name of ['', '   ', 'x'.repeat(MAX_PLACE_NAME_LENGTH + 1), 'Gym\n2', 'A\u0000B']) {
      expect(placeNamingOf({ name }), JSON.stringify(name)).toEqual({ ok: false, key: 'proper_place_name', field: 'name' });
    }
    expect(placeNamingOf({ name: ` ${'x'.repeat(MAX_PLACE_NAME_LENGTH)} ` }).ok).toBe(true);
    expect(placeNamingOf({ label: 'home', name: 'Gym' })).toEqual({ ok: false, key: 'proper_place_name', field: 'name' });
    expect(placeNamingOf({ label: 'home', name: 'work' })).toEqual({ ok: false, key: 'proper_place_name', field: 'name' });
  });

  it('takes an address of 1 to 300 characters, trimmed', () => {
    expect(placeDescriptionOf('  Tower of London ')).toEqual({ ok: true, value: 'Tower of London' });
    for (const text of ['', '  ', 'x'.repeat(301), 'a\u0007b']) expect(placeDescriptionOf(text).ok, JSON.stringify(text)).toBe(false);
  });

  it('makes room with the least used unnamed place, the oldest among equals, never a named one', () => {
    const place = (id: number, count: number, naming: { label?: 'home' | 'work'; name?: string } = {}) => ({ id, count, label: naming.label ?? null, name: naming.name ?? null });
    expect(placeToMakeRoom([place(1, 1, { label: 'home' }), place(2, 3), place(3, 2), place(4, 2), place(5, 1, { name: 'Gym' })])).toBe(3);
    expect(placeToMakeRoom([place(1, 1, { label: 'home' }), place(2, 1, { name: 'Gym' })])).toBeUndefined();
    expect(placeToMakeRoom([])).toBeUndefined();
  });

  it('finds the nearest saved place within 0.1 distance units of a point, in km or miles', () => {
    const baker = { id: 1, lat: 51.5238, lng: -0.1586 };
    const nearer = { id: 2, lat: 51.5239, lng: -0.1587 };
    // About 150 m east: beyond 0.1 km, within 0.1 miles (161 m).
    const point = { lat: 51.5238, lng: -0.1564 };
    expect(nearestSavedPlace([baker, nearer], { lat: 51.52388, lng: -0.15868 }, false)?.id).toBe(2);
    expect(nearestSavedPlace([baker], point, false)).toBeUndefined();
    expect(nearestSavedPlace([baker], point, true)?.id).toBe(1);
  });
});
