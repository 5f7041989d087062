import type { GridColDef } from '@mui/x-data-grid';
import { describe, expect, it } from 'vitest';
import { actionsWidth, columnsToHide } from './fit-columns';

type Row = { id: string };
const columns: GridColDef<Row>[] = [
  { field: 'name', minWidth: 150, flex: 1 },
  { field: 'email', minWidth: 200, flex: 1 },
  { field: 'mobile', width: 130 },
  { field: 'wallet', width: 120 },
  { field: 'online', width: 90 },
  { field: 'plain' },
  { field: 'actions', type: 'actions', width: 96 },
];
// 150 + 200 + 130 + 120 + 90 + 100 + 96 = 886

describe('fitting an admin table to its width (issue 17)', () => {
  it('hides nothing when everything fits, or before the width is known', () => {
    expect(columnsToHide(columns, ['online', 'wallet'], 886)).toEqual({});
    expect(columnsToHide(columns, ['online', 'wallet'], undefined)).toEqual({});
  });

  it('hides the least useful columns first, only as many as needed', () => {
    expect(columnsToHide(columns, ['online', 'wallet', 'mobile'], 850)).toEqual({ online: false });
    expect(columnsToHide(columns, ['online', 'wallet', 'mobile'], 700)).toEqual({ online: false, wallet: false });
    expect(columnsToHide(columns, ['online', 'wallet', 'mobile'], 300)).toEqual({ online: false, wallet: false, mobile: false });
  });

  it('never hides a column it was not given, and skips names of no column', () => {
    expect(columnsToHide(columns, ['nothing', 'online'], 800)).toEqual({ online: false });
  });

  it('gives an actions column room for its buttons', () => {
    expect(actionsWidth(1)).toBe(80);
    expect(actionsWidth(2)).toBe(96);
    expect(actionsWidth(3)).toBe(136);
  });
});
