import { FormControlLabel, FormHelperText, MenuItem, Stack, Switch, TextField } from '@mui/material';
import type { GridColDef, GridValidRowModel, ValueOptions } from '@mui/x-data-grid';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormErrors } from '../../hooks/use-form-errors';
import { ChangeList, type Change } from './ChangeList';
import { FormDialog } from './FormDialog';

type Draft = Record<string, string | boolean>;
type Option = { value: string; label: string };
type CellValue = string | number | boolean | null | undefined;

const cellOf = (row: GridValidRowModel, field: string): CellValue => row[field] as CellValue;

const optionsOf = <Row extends GridValidRowModel & { id: string }>(column: GridColDef<Row>, row: Row): Option[] => {
  if (column.type !== 'singleSelect' || !('valueOptions' in column) || column.valueOptions === undefined) return [];
  const options: ValueOptions[] = typeof column.valueOptions === 'function' ? column.valueOptions({ field: column.field, id: row.id, row }) : column.valueOptions;
  return options.map((option) => (typeof option === 'object' ? { value: String(option.value as string | number), label: option.label as string } : { value: String(option), label: String(option) }));
};

/** A cell's value as its field holds it: a switch's state, or the text typed. */
const draftOf = (value: CellValue, type: GridColDef['type']): string | boolean =>
  type === 'boolean' ? value === true : value === null || value === undefined ? '' : String(value);

/**
 * Issue 17: a table row is edited here, not in its cells. The fields are the table's editable
 * columns; Save shows what changes (before and after) and only Confirm sends the row. Nothing
 * changed closes without a request. A refusal of the save (a promise from onSave) lands on its
 * column's field.
 */
export function RowEditDialog<Row extends GridValidRowModel & { id: string }>({ row, columns, busy, onSave, onClose }: { row: Row; columns: readonly GridColDef<Row>[]; busy: boolean; onSave: (row: Row) => unknown; onClose: () => void }) {
  const { t } = useTranslation();
  const editable = columns.filter((column) => column.editable);
  const [fields] = useState(() => editable.map((column) => column.field));
  const errors = useFormErrors(fields);
  const [draft, setDraft] = useState<Draft>(() => Object.fromEntries(editable.map((column) => [column.field, draftOf(cellOf(row, column.field), column.type)])));
  const shown = (column: GridColDef<Row>, value: string | boolean): string => {
    if (typeof value === 'boolean') return t(value ? 'yes' : 'no');
    return optionsOf(column, row).find((option) => option.value === value)?.label ?? value;
  };
  const changes: Change[] = editable.flatMap((column) => {
    const before = draftOf(cellOf(row, column.field), column.type);
    const after = draft[column.field] ?? before;
    return before === after ? [] : [{ label: column.headerName ?? column.field, before: shown(column, before), after: shown(column, after) }];
  });
  const save = () => {
    if (changes.length === 0) {
      onClose();
      return undefined;
    }
    const edited: Record<string, unknown> = { ...row };
    for (const column of editable) {
      const value = draft[column.field];
      edited[column.field] = column.type === 'number' && typeof value === 'string' ? Number(value) : value;
    }
    return onSave(edited as Row);
  };
  const set = (field: string, value: string | boolean) => {
    setDraft((current) => ({ ...current, [field]: value }));
    errors.clear(field);
  };
  return (
    <FormDialog title={t('edit')} busy={busy} onSubmit={save} errors={errors} onClose={onClose} maxWidth="sm" confirmation={changes.length > 0 ? <ChangeList changes={changes} /> : undefined}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        {editable.map((column) => {
          const label = column.headerName ?? column.field;
          const value = draft[column.field];
          if (column.type === 'boolean') {
            const { error, helperText } = errors.field(column.field);
            return (
              <div key={column.field}>
                <FormControlLabel label={label} control={<Switch checked={value === true} onChange={(event) => { set(column.field, event.target.checked); }} />} />
                {error && <FormHelperText error>{helperText}</FormHelperText>}
              </div>
            );
          }
          if (column.type === 'singleSelect') {
            return (
              <TextField key={column.field} select label={label} value={value} onChange={(event) => { set(column.field, event.target.value); }} {...errors.field(column.field)}>
                {optionsOf(column, row).map((option) => <MenuItem key={option.value} value={option.value}>{option.label}</MenuItem>)}
              </TextField>
            );
          }
          return (
            <TextField
              key={column.field}
              label={label}
              value={value}
              type={column.type === 'number' ? 'number' : 'text'}
              required={column.type === 'number'}
              slotProps={column.type === 'number' ? { htmlInput: { step: 'any' } } : undefined}
              onChange={(event) => { set(column.field, event.target.value); }}
              {...errors.field(column.field)}
            />
          );
        })}
      </Stack>
    </FormDialog>
  );
}
