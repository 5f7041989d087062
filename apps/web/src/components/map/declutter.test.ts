import { describe, expect, it } from 'vitest';
import { placeLabels, type LabelItem } from './declutter';

const MARKER = { width: 35, height: 25 };
const VIEW = { width: 1200, height: 480 };
const LABEL = { width: 130, height: 18 };

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

function boxes(items: LabelItem[], view = VIEW) {
  const placements = placeLabels(items, MARKER, view);
  return items.map((item) => {
    const placement = placements.get(item.id);
    return { item, placement, box: placement ? { x: item.at.x + placement.offset.x, y: item.at.y + placement.offset.y, ...item.label } : null };
  });
}

/** The five demo drivers at the dashboard's zoom 10: within about 42 by 25 pixels. */
const DEMO: LabelItem[] = [
  { id: 'dan', at: { x: 618, y: 246 } },
  { id: 'dora', at: { x: 626, y: 260 } },
  { id: 'omar', at: { x: 641, y: 250 } },
  { id: 'olga', at: { x: 600, y: 240 } },
  { id: 'oscar', at: { x: 614, y: 265 } },
].map((item) => ({ ...item, label: LABEL }));

describe('the dashboard labels, decluttered', () => {
  it('puts a lone label beside its marker, to the right, with no leader line', () => {
    const [only] = boxes([{ id: 'a', at: { x: 100, y: 100 }, label: LABEL }]);
    expect(only?.placement).toEqual({ offset: { x: 35 / 2 + 3, y: -9 }, leaderTo: null });
  });

  it('places every demo driver\'s label, none over another label or over a car', () => {
    const placed = boxes(DEMO);
    const cars = DEMO.map(({ at }) => ({ x: at.x - 17.5, y: at.y - 12.5, ...MARKER }));
    for (const { box } of placed) expect(box).not.toBeNull();
    const labels = placed.map(({ box }) => box as Box);
    for (const [index, label] of labels.entries()) {
      for (const car of cars) expect(overlaps(label, car)).toBe(false);
      for (const other of labels.slice(index + 1)) expect(overlaps(label, other)).toBe(false);
    }
    // A label moved away from its car has a leader line ending on the middle of the label's near edge.
    for (const { placement } of placed) {
      if (!placement?.leaderTo) continue;
      const { offset, leaderTo } = placement;
      const middles = [
        { x: offset.x, y: offset.y + LABEL.height / 2 },
        { x: offset.x + LABEL.width, y: offset.y + LABEL.height / 2 },
        { x: offset.x + LABEL.width / 2, y: offset.y },
        { x: offset.x + LABEL.width / 2, y: offset.y + LABEL.height },
      ];
      expect(middles).toContainEqual(leaderTo);
    }
  });

  it('places the demo drivers\' labels on a phone-wide map too, above and below the group', () => {
    const narrow = { width: 343, height: 360 };
    const centred = DEMO.map((item) => ({ ...item, at: { x: item.at.x - 450, y: item.at.y - 70 } }));
    const placed = boxes(centred, narrow);
    for (const { box } of placed) {
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(narrow.width);
    }
    const labels = placed.map(({ box }) => box as Box);
    for (const [index, label] of labels.entries()) for (const other of labels.slice(index + 1)) expect(overlaps(label, other)).toBe(false);
  });

  it('keeps labels inside the map, and leaves one with no room unplaced (shown on hover)', () => {
    const nearEdge = boxes([{ id: 'edge', at: { x: 1190, y: 240 }, label: LABEL }]);
    expect(nearEdge[0]?.box?.x).toBeLessThan(1190);
    const crowd: LabelItem[] = Array.from({ length: 40 }, (_, index) => ({ id: `d${String(index)}`, at: { x: 100 + (index % 2), y: 100 }, label: LABEL }));
    const placed = boxes(crowd, { width: 400, height: 200 });
    expect(placed.some(({ placement }) => placement === null)).toBe(true);
    expect(placed.some(({ placement }) => placement !== null)).toBe(true);
  });

  it('lays out the same drivers the same way whatever order they come in', () => {
    const forwards = placeLabels(DEMO, MARKER, VIEW);
    const backwards = placeLabels([...DEMO].reverse(), MARKER, VIEW);
    expect([...backwards.entries()].sort()).toEqual([...forwards.entries()].sort());
  });
});
