import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import { Box, Button, Container, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Paper, Stack, Typography } from '@mui/material';
import { isDemoMode } from '@rideway/domain';
import { DataGrid, GridActionsCellItem, type GridColDef, type GridColumnVisibilityModel, type GridValidRowModel } from '@mui/x-data-grid';
import { arSD, enUS, esES } from '@mui/x-data-grid/locales';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/NoticeProvider';
import { errorKey } from '../../api/client';
import { useSettings } from '../../api/settings';
import { ADMIN_TABLE_PAGE_SIZE, ADMIN_TABLE_PAGE_SIZES } from '../../config/ui-constants';
import { actionsWidth, columnsToHide } from './fit-columns';
import { RowEditDialog } from './RowEditDialog';

const GRID_TEXTS: Record<string, typeof enUS> = { en: enUS, ar: arSD, es: esES };
/** The outline's and the grid's borders around the columns, with a pixel to spare for rounding. */
const FRAME_PX = 6;

type Props<Row extends GridValidRowModel & { id: string }> = {
  title: string;
  rows: Row[] | undefined;
  /** The table's columns; those marked editable are the fields of the row's edit dialog, never edited in their cells. */
  columns: GridColDef<Row>[];
  /** Saves a row changed in its edit dialog (after the admin confirmed the changes); its answer is the row as stored. */
  onUpdate?: (row: Row) => Promise<Row>;
  onDelete?: (row: Row) => Promise<void>;
  /** Opens the row's own full form instead of the edit dialog, for what the columns cannot hold. */
  onEdit?: (row: Row) => void;
  add?: { label: string; onClick: () => void };
  emptyText: string;
  pageSize?: number;
  exportName: string;
  /** Fields hidden, first to last, when the table is too narrow for every column (issue 17), so the actions stay in view. */
  lowValue?: string[];
  /** Shown between the title and the table (filters). */
  children?: ReactNode;
};

/** The width of an element, followed as it changes; undefined until measured. */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number>();
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => { setWidth(element.clientWidth); });
    observer.observe(element);
    return () => { observer.disconnect(); };
  }, []);
  return { ref, width };
}

/**
 * An admin table (issues 7 and 17): search, sort, paging, CSV export (not in demo mode), edit in
 * a dialog with a confirmation step, and delete with a confirmation; a refused edit shows its key
 * on the dialog's field, a refused delete in an error notice, and nothing changes. The actions stay in view: columns of little use
 * are hidden when the table is narrow (the grid's Columns menu shows them again).
 */
export function CrudTable<Row extends GridValidRowModel & { id: string }>({ title, rows, columns, onUpdate, onDelete, onEdit, add, emptyText, pageSize = ADMIN_TABLE_PAGE_SIZE, exportName, lowValue = [], children }: Props<Row>) {
  const { t, i18n } = useTranslation();
  const { data: settings } = useSettings();
  const notify = useNotice();
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [editing, setEditing] = useState<Row | null>(null);
  const [saving, setSaving] = useState(false);
  // What the admin chose in the Columns menu wins over the fitting.
  const [chosen, setChosen] = useState<GridColumnVisibilityModel>({});
  const { ref, width } = useWidth();
  const demo = settings ? isDemoMode(settings) : true;
  const edit = onEdit ?? (onUpdate ? setEditing : undefined);
  const buttons = (edit ? 1 : 0) + (onDelete ? 1 : 0);
  const actions: GridColDef<Row>[] =
    buttons > 0
      ? [
          {
            field: 'actions',
            type: 'actions',
            headerName: t('actions'),
            width: actionsWidth(buttons),
            getActions: ({ row }) => [
              ...(edit ? [<GridActionsCellItem key="edit" icon={<EditIcon />} label={t('edit')} onClick={() => { edit(row); }} />] : []),
              ...(onDelete ? [<GridActionsCellItem key="delete" icon={<DeleteIcon />} label={t('delete')} onClick={() => { setDeleting(row); }} />] : []),
            ],
          },
        ]
      : [];
  // Cells are never edited in place (issue 17): the edit dialog holds the editable columns.
  const shown = [...columns.map((column) => ({ ...column, editable: false })), ...actions];
  const remove = () => {
    if (!deleting || !onDelete) return;
    onDelete(deleting).then(
      () => { setDeleting(null); },
      (error: unknown) => {
        setDeleting(null);
        notify(t(errorKey(error)), 'error');
      },
    );
  };
  // A refusal stays with the edit dialog, which shows it on its field.
  const save = (row: Row) => {
    if (!onUpdate) return undefined;
    setSaving(true);
    return onUpdate(row)
      .then(() => {
        setEditing(null);
        notify(t('updated'));
      })
      .finally(() => { setSaving(false); });
  };
  return (
    // The widest container (1200 px): a table's columns need the room more than a form's lines do.
    <Container maxWidth="xl" sx={{ py: 3 }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 2 }}>
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        {add && (
          <Button variant="contained" onClick={add.onClick}>
            {add.label}
          </Button>
        )}
      </Stack>
      {children}
      <Box ref={ref}>
        <Paper variant="outlined">
          <DataGrid
            rows={rows ?? []}
            columns={shown}
            loading={rows === undefined}
            autoHeight
            showToolbar
            disableRowSelectionOnClick
            columnVisibilityModel={{ ...columnsToHide(shown, lowValue, width === undefined ? undefined : width - FRAME_PX), ...chosen }}
            onColumnVisibilityModelChange={(model) => { setChosen(model); }}
            pageSizeOptions={[pageSize, ...ADMIN_TABLE_PAGE_SIZES]}
            initialState={{ pagination: { paginationModel: { pageSize } } }}
            localeText={{ ...GRID_TEXTS[i18n.language]?.components.MuiDataGrid.defaultProps.localeText, noRowsLabel: emptyText }}
            slotProps={{
              // Issue 17: rows' shapes while the table loads, not an empty grid.
              loadingOverlay: { variant: 'skeleton', noRowsVariant: 'skeleton' },
              toolbar: {
                showQuickFilter: true,
                printOptions: { disableToolbarButton: true },
                // Section 6: demo mode keeps the data in the console.
                csvOptions: { fileName: exportName, disableToolbarButton: demo },
              },
            }}
          />
        </Paper>
      </Box>
      {editing && <RowEditDialog row={editing} columns={columns} busy={saving} onSave={save} onClose={() => { setEditing(null); }} />}
      <Dialog open={deleting !== null} onClose={() => { setDeleting(null); }} aria-labelledby="delete-title">
        <DialogTitle id="delete-title">{t('delete')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('delete_confirm')}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => { setDeleting(null); }}>{t('cancel')}</Button>
          <Button color="error" variant="contained" onClick={remove}>
            {t('delete')}
          </Button>
        </DialogActions>
      </Dialog>
    </Container>
  );
}
