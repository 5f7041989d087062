import type { ReviewDocument } from '@rideway/contract';
import type { DocumentStatus } from '@rideway/domain';
import { Box, Button, Card, CardActions, CardContent, Chip, Container, Link, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReviewDecision, useReviewDocuments } from '../../api/documents';
import { CardListSkeleton } from '../../components/Skeletons';
import { useDates } from '../../hooks/use-dates';
import { KIND_LABELS, STATUS_COLOURS, STATUS_LABELS } from '../../utils/document-labels';
import { ReviewDecisionDialog, type ReviewDecision, type ReviewTexts } from './ReviewDecisionDialog';
import { VehicleReviewSection } from './VehicleReviewSection';

type Deciding = { document: ReviewDocument; decision: ReviewDecision };

const DOCUMENT_TEXTS: ReviewTexts = { approveTitle: 'document_approve_title', rejectTitle: 'document_reject_title', rejectHint: 'document_reject_hint', approvedDone: 'document_approved_done', rejectedDone: 'document_rejected_done' };

/** Asks before a decision; a rejection needs the reason the driver reads. */
function DecisionDialog({ deciding, onClose }: { deciding: Deciding; onClose: () => void }) {
  const { t } = useTranslation();
  const decide = useReviewDecision();
  const { document, decision } = deciding;
  return (
    <ReviewDecisionDialog
      decision={decision}
      subject={[t(KIND_LABELS[document.kind]), document.vehicle, document.driverName].filter(Boolean).join(' · ')}
      texts={DOCUMENT_TEXTS}
      pending={decide.isPending}
      decide={(reason, callbacks) => { decide.mutate({ id: document.id, decision, reason }, callbacks); }}
      onClose={onClose}
    />
  );
}

/**
 * Issue 20 /documentreview: drivers' documents with their images, for an admin (every driver) or
 * a fleet admin (its own drivers); a pending one is approved, or rejected with a reason. Drivers'
 * vehicles, with their photos, follow under the same filter (VehicleReviewSection).
 */
export function DocumentReviewPage() {
  const { t } = useTranslation();
  const dates = useDates();
  const [status, setStatus] = useState<DocumentStatus | 'all'>('pending');
  const { data, isPending } = useReviewDocuments(status === 'all' ? undefined : status);
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Typography variant="h5" component="h1" gutterBottom>{t('menu_document_review')}</Typography>
      <ToggleButtonGroup exclusive size="small" value={status} onChange={(_event, value: DocumentStatus | 'all' | null) => { if (value) setStatus(value); }} sx={{ mb: 2, flexWrap: 'wrap' }}>
        <ToggleButton value="pending">{t('documents_filter_pending')}</ToggleButton>
        <ToggleButton value="approved">{t('document_status_approved')}</ToggleButton>
        <ToggleButton value="rejected">{t('document_status_rejected')}</ToggleButton>
        <ToggleButton value="all">{t('documents_filter_all')}</ToggleButton>
      </ToggleButtonGroup>
      {isPending && <CardListSkeleton />}
      {data?.length === 0 && <Typography color="text.secondary">{t('documents_review_empty')}</Typography>}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>
        {data?.map((document) => (
          <Card key={document.id} variant="outlined" data-document={document.id} component="article" aria-label={`${t(KIND_LABELS[document.kind])} · ${document.driverName}`}>
            <Link href={document.image} target="_blank" rel="noopener" sx={{ display: 'block' }}>
              <Box component="img" src={document.image} alt={t('document_image_alt', { document: t(KIND_LABELS[document.kind]), name: document.driverName })} sx={{ width: '100%', height: 180, objectFit: 'contain', bgcolor: 'action.hover' }} />
            </Link>
            <CardContent>
              <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <Typography variant="subtitle1" component="h2">{t(KIND_LABELS[document.kind])}</Typography>
                <Chip size="small" color={STATUS_COLOURS[document.status]} label={t(STATUS_LABELS[document.status])} />
              </Stack>
              <Typography variant="body2">{`${t('document_driver')}: ${document.driverName}`}</Typography>
              {document.driverEmail && <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>{document.driverEmail}</Typography>}
              {document.vehicle && <Typography variant="body2" data-testid="document-vehicle" sx={{ overflowWrap: 'anywhere' }}>{`${t('document_vehicle')}: ${document.vehicle}`}</Typography>}
              <Typography variant="body2">{t('document_expires_label', { date: document.expiresOn })}</Typography>
              <Typography variant="body2" color="text.secondary">{t('document_sent_on', { date: dates.dateTime(document.createdAt) })}</Typography>
              {document.reason && <Typography variant="body2" color="error">{`${t('document_reason')}: ${document.reason}`}</Typography>}
            </CardContent>
            {document.status === 'pending' && (
              <CardActions>
                <Button variant="contained" size="small" onClick={() => { setDeciding({ document, decision: 'approve' }); }}>{t('document_approve')}</Button>
                <Button color="error" size="small" onClick={() => { setDeciding({ document, decision: 'reject' }); }}>{t('document_reject')}</Button>
              </CardActions>
            )}
          </Card>
        ))}
      </Box>
      {deciding && <DecisionDialog deciding={deciding} onClose={() => { setDeciding(null); }} />}
      <VehicleReviewSection status={status === 'all' ? undefined : status} />
    </Container>
  );
}
