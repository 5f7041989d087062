import { Alert, AlertTitle, Button } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useMyDocuments } from '../api/documents';
import { KIND_LABELS, PROBLEM_LABELS } from '../utils/document-labels';

/**
 * Issue 20: why a driver cannot go online (each missing, pending, rejected or expired document,
 * a registration or insurance named with its vehicle, and an active vehicle missing or waiting for
 * review),
 * with the way to the documents page. Shows nothing while documents are in order or not required.
 */
export function DocumentProblemsAlert({ withLink = true }: { withLink?: boolean }) {
  const { t } = useTranslation();
  const { data } = useMyDocuments();
  if (!data?.required || data.problems.length === 0) return null;
  return (
    <Alert
      severity="warning"
      sx={{ mt: 2 }}
      data-testid="document-problems"
      action={withLink ? <Button component={RouterLink} to="/documents" color="inherit" size="small">{t('documents_open')}</Button> : undefined}
    >
      <AlertTitle>{t('documents_problems_title')}</AlertTitle>
      <ul style={{ margin: 0, paddingInlineStart: '1.2em' }}>
        {data.problems.map((problem) => (
          <li key={`${problem.kind}:${problem.vehicleId ?? ''}`}>
            {problem.kind === 'vehicle'
              ? t(problem.problem === 'pending' ? 'vehicle_problem_pending' : 'vehicle_problem_missing')
              : t(PROBLEM_LABELS[problem.problem], { document: problem.vehicle ? `${t(KIND_LABELS[problem.kind])} – ${problem.vehicle}` : t(KIND_LABELS[problem.kind]) })}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
