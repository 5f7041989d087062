/**
 * Label placement for many markers close together (the dashboard's drivers): each label goes to
 * the nearest spot beside its marker where it covers no marker and no label placed before it,
 * further out (sideways, or stacked above and below) with a leader line when the spots next to
 * it are taken; a label with no free spot
 * within reach is not placed (the page shows it on hover and focus instead). Pixels, map space.
 */

type Size = { width: number; height: number };
type Point = { x: number; y: number };
type Box = Point & Size;

export type LabelItem = {
  id: string;
  /** The marker's centre in the map's pixels. */
  at: Point;
  /** The label's measured size. */
  label: Size;
};

/** Where a label goes, relative to its marker's centre: its top-left corner, and the point a leader line runs to (none when it sits beside the marker). */
export type LabelPlacement = { offset: Point; leaderTo: Point | null } | null;

/** The gap between a marker and a label beside it, and between stacked labels. */
const GAP = 3;
/** How far out a displaced label may go: steps sideways and rows up or down. */
const SIDE_STEPS = [12, 28, 44, 60];
const MAX_ROWS = 4;

type Candidate = { offset: Point; leaderTo: Point | null; cost: number };

/** The spots to try for one label, nearest first: beside the marker, then out along a leader line. */
function candidates(marker: Size, label: Size): Candidate[] {
  const halfW = marker.width / 2;
  const halfH = marker.height / 2;
  const middle = -label.height / 2;
  const beside: Candidate[] = [
    { offset: { x: halfW + GAP, y: middle }, leaderTo: null, cost: 0 },
    { offset: { x: -halfW - GAP - label.width, y: middle }, leaderTo: null, cost: 0.1 },
    { offset: { x: -label.width / 2, y: -halfH - GAP - label.height }, leaderTo: null, cost: 0.2 },
    { offset: { x: -label.width / 2, y: halfH + GAP }, leaderTo: null, cost: 0.3 },
  ];
  const out: Candidate[] = [];
  const row = label.height + GAP;
  for (const [stepIndex, step] of SIDE_STEPS.entries()) {
    for (let rows = -MAX_ROWS; rows <= MAX_ROWS; rows += 1) {
      const y = middle + rows * row;
      const cost = 1 + stepIndex + Math.abs(rows) * 1.5 + (rows > 0 ? 0.25 : 0);
      const right = { x: halfW + GAP + step, y };
      const left = { x: -halfW - GAP - step - label.width, y };
      out.push({ offset: right, leaderTo: { x: right.x, y: y + label.height / 2 }, cost });
      out.push({ offset: left, leaderTo: { x: left.x + label.width, y: y + label.height / 2 }, cost: cost + 0.1 });
    }
  }
  // Above and below, stacked: where a narrow map leaves no room beside a group of markers.
  for (let rows = 1; rows <= MAX_ROWS + 2; rows += 1) {
    const x = -label.width / 2;
    const above = { x, y: -halfH - GAP - label.height - rows * row };
    const below = { x, y: halfH + GAP + rows * row };
    const cost = 1.2 + rows * 1.5;
    out.push({ offset: above, leaderTo: { x: 0, y: above.y + label.height }, cost });
    out.push({ offset: below, leaderTo: { x: 0, y: below.y }, cost: cost + 0.1 });
  }
  return [...beside, ...out.sort((a, b) => a.cost - b.cost)];
}

const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (box: Box, view: Size): boolean => box.x >= 0 && box.y >= 0 && box.x + box.width <= view.width && box.y + box.height <= view.height;

/**
 * Every label's placement, by id. Labels are placed top to bottom, then left to right, so the
 * same drivers in the same places get the same layout each time.
 */
export function placeLabels(items: readonly LabelItem[], marker: Size, view: Size): Map<string, LabelPlacement> {
  const markers: Box[] = items.map(({ at }) => ({ x: at.x - marker.width / 2, y: at.y - marker.height / 2, ...marker }));
  const labels: Box[] = [];
  const placements = new Map<string, LabelPlacement>();
  const ordered = [...items].sort((a, b) => a.at.y - b.at.y || a.at.x - b.at.x || a.id.localeCompare(b.id));
  for (const item of ordered) {
    const free = candidates(marker, item.label).find(({ offset }) => {
      const box = { x: item.at.x + offset.x, y: item.at.y + offset.y, ...item.label };
      return inside(box, view) && !markers.some((other) => overlaps(box, other)) && !labels.some((other) => overlaps(box, other));
    });
    if (free) labels.push({ x: item.at.x + free.offset.x, y: item.at.y + free.offset.y, ...item.label });
    placements.set(item.id, free ? { offset: free.offset, leaderTo: free.leaderTo } : null);
  }
  return placements;
}
