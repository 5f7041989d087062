import PhotoCameraIcon from '@mui/icons-material/PhotoCameraOutlined';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { scaledPhoto } from '../../app/images';

/** The longest side a photo is sent at: enough to see a parcel and its label, small on a phone's data. */
const MAX_SIDE = 1280;

type Props = { label: string; photo: string | null; busy: boolean; onPhoto: (dataUrl: string) => void; onUnreadable: () => void };

/** Issue 8: the parcel's photo, from the phone's camera (or a file on a computer), with what is stored. */
export function PhotoCapture({ label, photo, busy, onPhoto, onUnreadable }: Props) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
      {photo ? (
        <Box component="img" src={photo} alt={label} sx={{ width: 72, height: 72, objectFit: 'cover', borderRadius: 1, border: 1, borderColor: 'divider' }} />
      ) : (
        <Typography variant="body2" color="text.secondary" sx={{ flex: '0 0 auto' }}>
          {t('no_photo_yet')}
        </Typography>
      )}
      <Button component="label" variant={photo ? 'outlined' : 'contained'} startIcon={<PhotoCameraIcon />} disabled={busy}>
        {label}
        <input
          hidden
          type="file"
          accept="image/*"
          capture="environment"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) scaledPhoto(file, MAX_SIDE).then(onPhoto, onUnreadable);
          }}
        />
      </Button>
    </Stack>
  );
}
