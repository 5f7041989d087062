import type { DriverDocument } from '@rideway/contract';
import type { DocumentKind } from '@rideway/domain';
import { Alert, Box, Button, Chip, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../api/client';
import { useUploadDocument } from '../../api/documents';
import { ImagePicker } from '../../components/ImagePicker';
import { useNotice } from '../../components/NoticeProvider';
import { LICENCE_PHOTO_MAX_SIDE_PX } from '../../config/ui-constants';
import { KIND_LABELS, STATUS_COLOURS, STATUS_LABELS } from '../../utils/document-labels';
import { scaledPhoto } from '../../utils/images';

/**
 * One kind: what was sent (image, expiry, status, the reviewer's reason) and a new upload. A
 * registration or insurance is one vehicle's (`vehicle`): sent with its id, and named after it in
 * the labels a screen reader reads.
 */
export function DocumentCard({ kind, current, today, vehicle }: { kind: DocumentKind; current: DriverDocument | undefined; today: string; vehicle?: { id: string; title: string } }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const upload = useUploadDocument();
  const [image, setImage] = useState<string | null>(null);
  const [expiresOn, setExpiresOn] = useState('');
  const [error, setError] = useState<string | null>(null);
  const titleId = vehicle ? `document-${kind}-${vehicle.id}` : `document-${kind}`;
  const named = vehicle ? `${t(KIND_LABELS[kind])} – ${vehicle.title}` : t(KIND_LABELS[kind]);
  const send = () => {
    if (!image || !expiresOn) {
      setError(t('document_needs_image'));
      return;
    }
    setError(null);
    upload.mutate({ kind, image, expiresOn, vehicleId: vehicle?.id }, {
      onSuccess: () => {
        setImage(null);
        setExpiresOn('');
        notify(t('document_sent'), 'success');
      },
      onError: (failure) => { setError(t(errorKey(failure))); },
    });
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} sx={{ p: 2 }} data-kind={kind} data-vehicle={vehicle?.id}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}>
        <Typography id={titleId} variant={vehicle ? 'subtitle1' : 'h6'} component={vehicle ? 'h4' : 'h2'} aria-label={named}>{t(KIND_LABELS[kind])}</Typography>
        {current ? <Chip size="small" color={STATUS_COLOURS[current.status]} label={t(STATUS_LABELS[current.status])} /> : <Chip size="small" label={t('document_not_sent')} />}
      </Stack>
      {current && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
          <Box component="img" src={current.image} alt={named} sx={{ width: 96, height: 64, objectFit: 'cover', borderRadius: 1, border: 1, borderColor: 'divider' }} />
          <div>
            <Typography variant="body2">{t('document_expires_label', { date: current.expiresOn })}</Typography>
            {current.status === 'rejected' && current.reason && <Typography variant="body2" color="error">{`${t('document_reason')}: ${current.reason}`}</Typography>}
          </div>
        </Stack>
      )}
      <Stack spacing={2}>
        <ImagePicker
          label={t('document_choose_image')}
          inputLabel={`${t('document_choose_image')} – ${named}`}
          image={image}
          imageAlt={named}
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
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: today, 'aria-label': `${t('document_expires_on')} – ${named}` } }}
            size="small"
          />
          <Button variant="contained" onClick={send} loading={upload.isPending}>{t('document_send')}</Button>
        </Stack>
        {error && <Alert severity="error">{error}</Alert>}
      </Stack>
    </Paper>
  );
}
