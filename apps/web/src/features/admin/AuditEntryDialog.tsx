import type { AuditEntry } from '@rideway/contract';
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableHead, TableRow, Typography, useMediaQuery, useTheme } from '@mui/material';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDates } from '../../hooks/use-dates';
import { actionLabel, actorLabel, changeLines, entityLabel } from './audit-view';

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="caption" color="text.secondary">{label}</Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, mb: 1.5, wordBreak: 'break-word' }}>{children}</Typography>
    </>
  );
}

/** Long values (a service area, an address) wrap inside their cell instead of widening the dialog. */
const CELL = { verticalAlign: 'top', wordBreak: 'break-word', whiteSpace: 'pre-wrap', px: 1 } as const;

/**
 * Issue 23 point 8: one entry whole: when, who, what, and each changed field's value before and
 * after (a table; on a phone, a list). On a phone the page's table keeps only who and the action;
 * here nothing is cut.
 */
export function AuditEntryDialog({ entry, onClose }: { entry: AuditEntry; onClose: () => void }) {
  const { t } = useTranslation();
  const dates = useDates();
  const titleId = useId();
  const narrow = useMediaQuery(useTheme().breakpoints.down('sm'));
  const lines = changeLines(entry, t, (at) => dates.dateTime(at));
  const who = [actorLabel(entry, t), entry.actor.email, t(`usertype_${entry.actor.usertype}`)].filter((part) => part).join(' · ');
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="md">
      <DialogTitle id={titleId}>{actionLabel(entry.action, t)}</DialogTitle>
      <DialogContent>
        <dl style={{ margin: 0 }}>
          <Line label={t('audit_when')}>{dates.dateTime(entry.at)}</Line>
          <Line label={t('audit_who')}>{who}</Line>
          <Line label={t('audit_what')}>
            {entityLabel(entry.entityType, t)}
            {entry.entityName && ` · ${entry.entityName}`}
            {entry.entityType !== 'settings' && (
              <Typography component="span" variant="body2" color="text.secondary">{` · ${t('audit_entity_id')} ${entry.entityId}`}</Typography>
            )}
          </Line>
          {entry.requestId && <Line label={t('audit_request_id')}>{entry.requestId}</Line>}
        </dl>
        {narrow ? (
          // A phone has no room for three columns: each field, then its value before and after.
          <Box component="dl" aria-label={t('audit_what')} sx={{ m: 0 }}>
            {lines.map((line) => (
              <Box key={line.field} data-field={line.field} sx={{ borderTop: 1, borderColor: 'divider', py: 1 }}>
                <Typography component="dt" variant="subtitle2" sx={{ wordBreak: 'break-word' }}>{line.field}</Typography>
                {(['before', 'after'] as const).map((side) => (
                  <Typography key={side} component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>
                    <Typography component="span" variant="body2" color="text.secondary">{`${t(`audit_${side}`)}: `}</Typography>
                    <span data-side={side}>{line[side]}</span>
                  </Typography>
                ))}
              </Box>
            ))}
          </Box>
        ) : (
          <Table size="small" aria-label={t('audit_what')} sx={{ tableLayout: 'fixed' }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ ...CELL, width: '30%' }}>{t('audit_field')}</TableCell>
                <TableCell sx={CELL}>{t('audit_before')}</TableCell>
                <TableCell sx={CELL}>{t('audit_after')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((line) => (
                <TableRow key={line.field} data-field={line.field}>
                  <TableCell component="th" scope="row" sx={{ ...CELL, fontWeight: 'medium' }}>{line.field}</TableCell>
                  <TableCell sx={CELL} data-side="before">{line.before}</TableCell>
                  <TableCell sx={CELL} data-side="after">{line.after}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
