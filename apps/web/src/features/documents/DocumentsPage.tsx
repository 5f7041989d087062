import type { DriverDocument } from '@rideway/contract';
import { DOCUMENT_KINDS, todayIn, type DocumentKind } from '@rideway/domain';
import { Alert, Box, Button, Chip, Container, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../api/client';
import { useMyDocuments, useUploadDocument } from '../../api/documents';
import { useSettings } from '../../api/settings';
import { ImagePicker } from '../../components/ImagePicker';
import { useNotice } from '../../components/NoticeProvider';
import { CardListSkeleton } from '../../components/Skeletons';
import { LICENCE_PHOTO_MAX_SIDE_PX } from '../../config/ui-constants';
import { scaledPhoto } from '../../utils/images';
import { DocumentProblemsAlert } from '../../components/DocumentProblemsAlert';
import { KIND_LABELS, STATUS_COLOURS, STATUS_LABELS } from '../../utils/document-labels';
import { VehiclesSection } from './VehiclesSection';

/** One kind: what was sent (image, expiry, status, the reviewer's reason) and a new upload. */
function DocumentCard({ kind, current, today }: { kind: DocumentKind; current: DriverDocument | undefined; today: string }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const upload = useUploadDocument();
  const [image, setImage] = useState<string | null>(null);
  const [expiresOn, setExpiresOn] = useState('');
  const [error, setError] = useState<string | null>(null);
  const titleId = `document-${kind}`;
  const send = () => {
    if (!image || !expiresOn) {
      setError(t('document_needs_image'));
      return;
    }
    setError(null);
    upload.mutate({ kind, image, expiresOn }, {
      onSuccess: () => {
        setImage(null);
        setExpiresOn('');
        notify(t('document_sent'), 'success');
      },
      onError: (failure) => { setError(t(errorKey(failure))); },
    });
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2 }} data-kind={kind}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Typography id={titleId} variant="h6" component="h2">{t(KIND_LABELS[kind])}</Typography>
        {current ? <Chip size="small" color={STATUS_COLOURS[current.status]} label={t(STATUS_LABELS[current.status])} /> : <Chip size="small" label={t('document_not_sent')} />}
      </Stack>
      {current && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
          <Box component="img" src={current.image} alt={t(KIND_LABELS[kind])} sx={{ width: 96, height: 64, objectFit: 'cover', borderRadius: 1, border: 1, borderColor: 'divider' }} />
          <div>
            <Typography variant="body2">{t('document_expires_label', { date: current.expiresOn })}</Typography>
            {current.status === 'rejected' && current.reason && <Typography variant="body2" color="error">{`${t('document_reason')}: ${current.reason}`}</Typography>}
          </div>
        </Stack>
      )}
      <Stack spacing={2}>
        <ImagePicker
          label={t('document_choose_image')}
          inputLabel={`${t('document_choose_image')} – ${t(KIND_LABELS[kind])}`}
          image={image}
          imageAlt={t(KIND_LABELS[kind])}
          read={(file) => scaledPhoto(file, LICENCE_PHOTO_MAX_SIDE_PX)}
          onImage={setImage}
          onUnreadable={() => { setError(t('proper_document_image')); }}
          previewSx={{ width: 96, height: 64, objectFit: 'cover', borderRadius: 1, border: 1, borderColor: 'divider' }}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            type="date"
            label={t('document_expires_on')}
            value={expiresOn}
            onChange={(event) => { setExpiresOn(event.target.value); }}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today, 'aria-label': `${t('document_expires_on')} – ${t(KIND_LABELS[kind])}` } }}
            size="small"
          />
          <Button variant="contained" onClick={send} loading={upload.isPending}>{t('document_send')}</Button>
        </Stack>
        {error && <Alert severity="error">{error}</Alert>}
      </Stack>
    </Paper>
  );
}

/**
 * Issue 20 /documents: a driver's licence (front and back), ID, vehicle registration and
 * insurance, each sent with its expiry date and reviewed by an admin, and its vehicles; what keeps
 * the driver offline is listed at the top.
 */
export function DocumentsPage() {
  const { t } = useTranslation();
  const { data, isPending } = useMyDocuments();
  const { data: settings } = useSettings();
  // The day the page opened, on the operator's calendar: the earliest expiry date offered.
  const [openedAt] = useState(Date.now);
  const today = todayIn(openedAt, settings?.timezone ?? 'UTC');
  const byKind = new Map((data?.documents ?? []).map((doc) => [doc.kind, doc]));
  return (
    <Container maxWidth="md" sx={{ py: 3 }}>
      <Typography variant="h5" component="h1" gutterBottom>{t('menu_documents')}</Typography>
      <Typography color="text.secondary" sx={{ mb: 1 }}>{t('documents_intro')}</Typography>
      <DocumentProblemsAlert withLink={false} />
      {data && data.required && data.problems.length === 0 && <Alert severity="success" sx={{ mt: 2 }}>{t('documents_all_fine')}</Alert>}
      {data && !data.required && <Alert severity="info" sx={{ mt: 2 }}>{t('documents_not_required')}</Alert>}
      <Stack spacing={2} sx={{ mt: 2 }}>
        {isPending ? <CardListSkeleton /> : DOCUMENT_KINDS.map((kind) => <DocumentCard key={kind} kind={kind} current={byKind.get(kind)} today={today} />)}
      </Stack>
      <VehiclesSection />
    </Container>
  );
}
