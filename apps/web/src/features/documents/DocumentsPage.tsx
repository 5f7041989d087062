import { DRIVER_DOCUMENT_KINDS, todayIn } from '@rideway/domain';
import { Alert, Container, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMyDocuments } from '../../api/documents';
import { useSettings } from '../../api/settings';
import { CardListSkeleton } from '../../components/Skeletons';
import { DocumentProblemsAlert } from '../../components/DocumentProblemsAlert';
import { DocumentCard } from './DocumentCard';
import { VehiclesSection } from './VehiclesSection';

/**
 * Issue 20 /documents: a driver's licence (front and back) and ID, each sent with its expiry date
 * and reviewed by an admin, and its vehicles, each with its own registration and insurance
 * (VehiclesSection); what keeps the driver offline is listed at the top.
 */
export function DocumentsPage() {
  const { t } = useTranslation();
  const { data, isPending } = useMyDocuments();
  const { data: settings } = useSettings();
  // The day the page opened, on the operator's calendar: the earliest expiry date offered.
  const [openedAt] = useState(Date.now);
  const today = todayIn(openedAt, settings?.timezone ?? 'UTC');
  const byKind = new Map((data?.documents ?? []).filter((doc) => doc.vehicleId === null).map((doc) => [doc.kind, doc]));
  return (
    <Container maxWidth="md" sx={{ py: 3 }}>
      <Typography variant="h5" component="h1" gutterBottom>{t('menu_documents')}</Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>{t('documents_intro')}</Typography>
      <DocumentProblemsAlert withLink={false} />
      {data && data.required && data.problems.length === 0 && <Alert severity="success" sx={{ mt: 2 }}>{t('documents_all_fine')}</Alert>}
      {data && !data.required && <Alert severity="info" sx={{ mt: 2 }}>{t('documents_not_required')}</Alert>}
      <Stack spacing={2} sx={{ mt: 2 }}>
        {isPending ? <CardListSkeleton /> : DRIVER_DOCUMENT_KINDS.map((kind) => <DocumentCard key={kind} kind={kind} current={byKind.get(kind)} today={today} />)}
      </Stack>
      <VehiclesSection documents={data?.documents ?? []} today={today} />
    </Container>
  );
}
