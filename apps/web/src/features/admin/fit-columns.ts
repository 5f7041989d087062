import type { GridColDef, GridColumnVisibilityModel, GridValidRowModel } from '@mui/x-data-grid';

/** The grid's own default column width, for a column that states none. */
const GRID_DEFAULT_WIDTH = 100;

/** The narrowest a column is drawn: its fixed width, else its minimum (a flex column grows from it). */
const narrowest = (column: GridColDef<GridValidRowModel>): number => column.width ?? column.minWidth ?? GRID_DEFAULT_WIDTH;

/**
 * Issue 17: a table narrower than its columns scrolls them sideways, and the actions (always the
 * last column) went off the screen at 1280 px. The community grid cannot pin a column, so the
 * columns named as least useful are hidden, in the order given, until the rest fit `width`. A
 * width not known yet hides nothing; a table that cannot fit even so hides them all.
 */
export function columnsToHide<Row extends GridValidRowModel>(columns: readonly GridColDef<Row>[], lowValue: readonly string[], width: number | undefined): GridColumnVisibilityModel {
  const hidden: GridColumnVisibilityModel = {};
  if (width === undefined || width <= 0) return hidden;
  let needed = columns.reduce((sum, column) => sum + narrowest(column as GridColDef<GridValidRowModel>), 0);
  for (const field of lowValue) {
    if (needed <= width) break;
    const column = columns.find((candidate) => candidate.field === field);
    if (!column) continue;
    hidden[field] = false;
    needed -= narrowest(column as GridColDef<GridValidRowModel>);
  }
  return hidden;
}

/** The width an actions column needs for its icon buttons. */
export const actionsWidth = (buttons: number): number => Math.max(80, buttons * 40 + 16);
