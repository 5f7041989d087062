import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import { Button, Container, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Paper, Stack, Typography } from '@mui/material';
import { isDemoMode } from '@rideway/domain';
import { DataGrid, GridActionsCellItem, type GridColDef, type GridValidRowModel } from '@mui/x-data-grid';
import { arSD, enUS, esES } from '@mui/x-data-grid/locales';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from '../../components/AlertDialog';
import { errorKey } from '../../api/client';
import { useSettings } from '../../api/settings';
import { ADMIN_TABLE_PAGE_SIZE, ADMIN_TABLE_PAGE_SIZES } from '../../config/ui-constants';

const GRID_TEXTS: Record<string, typeof enUS> = { en: enUS, ar: arSD, es: esES };

type Props<Row extends GridValidRowModel & { id: string }> = {
  title: string;
  rows: Row[] | undefined;
  columns: GridColDef<Row>[];
  /** Saves an inline edit; its answer is the row as stored. */
  onUpdate?: (row: Row) => Promise<Row>;
  onDelete?: (row: Row) => Promise<void>;
  /** Opens the row's full form, for what does not fit a cell. */
  onEdit?: (row: Row) => void;
  add?: { label: string; onClick: () => void };
  emptyText: string;
  pageSize?: number;
  exportName: string;
};

/**
 * An admin table (issue 7): search, sort, paging, CSV export (not in demo mode), inline edit and
 * delete with a confirmation; a refused change shows its key in the Alert dialog and the row
 * goes back to what is stored.
 */
export function CrudTable<Row extends GridValidRowModel & { id: string }>({ title, rows, columns, onUpdate, onDelete, onEdit, add, emptyText, pageSize = ADMIN_TABLE_PAGE_SIZE, exportName }: Props<Row>) {
  const { t, i18n } = useTranslation();
  const { data: settings } = useSettings();
  const [alert, setAlert] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const demo = settings ? isDemoMode(settings) : true;
  const actions: GridColDef<Row>[] =
    onDelete || onEdit
      ? [
          {
            field: 'actions',
            type: 'actions',
            headerName: t('actions'),
            getActions: ({ row }) => [
              ...(onEdit ? [<GridActionsCellItem key="edit" icon={<EditIcon />} label={t('edit')} onClick={() => { onEdit(row); }} />] : []),
              ...(onDelete ? [<GridActionsCellItem key="delete" icon={<DeleteIcon />} label={t('delete')} onClick={() => { setDeleting(row); }} />] : []),
            ],
          },
        ]
      : [];
  const remove = () => {
    if (!deleting || !onDelete) return;
    onDelete(deleting).then(
      () => { setDeleting(null); },
      (error: unknown) => {
        setDeleting(null);
        setAlert(t(errorKey(error)));
      },
    );
  };
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
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
      <Paper variant="outlined">
        <DataGrid
          rows={rows ?? []}
          columns={[...columns, ...actions]}
          loading={rows === undefined}
          autoHeight
          showToolbar
          disableRowSelectionOnClick
          pageSizeOptions={[pageSize, ...ADMIN_TABLE_PAGE_SIZES]}
          initialState={{ pagination: { paginationModel: { pageSize } } }}
          localeText={{ ...GRID_TEXTS[i18n.language]?.components.MuiDataGrid.defaultProps.localeText, noRowsLabel: emptyText }}
          slotProps={{
            toolbar: {
              showQuickFilter: true,
              printOptions: { disableToolbarButton: true },
              // Section 6: demo mode keeps the data in the console.
              csvOptions: { fileName: exportName, disableToolbarButton: demo },
            },
          }}
          processRowUpdate={
            onUpdate
              ? (row: Row, stored: Row) =>
                  onUpdate(row).catch((error: unknown) => {
                    setAlert(t(errorKey(error)));
                    return stored;
                  })
              : undefined
          }
        />
      </Paper>
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
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
    </Container>
  );
}
