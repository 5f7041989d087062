import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** One changed field, as the confirmation step shows it. */
export type Change = { label: string; before: string; after: string };

/** The confirmation step of an edit (issue 17): each changed field, what it was and what it will be. */
export function ChangeList({ changes }: { changes: readonly Change[] }) {
  const { t } = useTranslation();
  if (changes.length === 0) return <Typography>{t('no_changes')}</Typography>;
  return (
    <Table size="small" aria-label={t('confirm_changes')}>
      <TableHead>
        <TableRow>
          <TableCell>{t('field_name')}</TableCell>
          <TableCell>{t('value_before')}</TableCell>
          <TableCell>{t('value_after')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {changes.map((change) => (
          <TableRow key={change.label}>
            <TableCell component="th" scope="row">{change.label}</TableCell>
            <TableCell sx={{ color: 'text.secondary', textDecoration: 'line-through', overflowWrap: 'anywhere' }}>{change.before || '—'}</TableCell>
            <TableCell sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{change.after || '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
