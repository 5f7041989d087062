import type { User } from '@rideway/contract';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import { Avatar, Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useProfilePhoto } from '../../api/account';
import { errorKey } from '../../api/client';
import { useNotice } from '../../components/NoticeProvider';
import { SectionCard } from '../../components/SectionCard';
import { scaledPhoto } from '../../utils/images';
import { initialsOf } from '../../utils/initials';

/** What the browser sends: a phone's photo scaled down first; the server checks it and makes the stored square. */
const PHOTO_UPLOAD_MAX_SIDE_PX = 1024;

/** Issue 20: the own photo (section 3's profile_image), shown in the top bar and to the other party of a trip. */
export function PhotoCard({ me }: { me: User }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const photo = useProfilePhoto();
  const name = `${me.firstName} ${me.lastName}`.trim();
  const send = (image: string | null) => {
    photo.mutate(image, {
      onSuccess: () => { notify(t(image === null ? 'photo_removed' : 'photo_saved')); },
      onError: (error) => { notify(t(errorKey(error)), 'error'); },
    });
  };
  return (
    <SectionCard title={t('profile_photo')}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Avatar src={me.profile_image ?? undefined} alt={name} data-testid="profile-photo" sx={{ width: 72, height: 72, bgcolor: 'primary.main', fontSize: 28 }}>
          {initialsOf(name)}
        </Avatar>
        <Stack spacing={1} sx={{ flex: 1, minWidth: 180 }}>
          <Typography variant="body2" color="text.secondary">
            {me.profile_image ? t('profile_photo_help') : t('no_profile_photo')}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            <Button component="label" variant={me.profile_image ? 'outlined' : 'contained'} startIcon={<PhotoCameraIcon />} loading={photo.isPending && photo.variables !== null}>
              {t('choose_photo')}
              <input
                hidden
                type="file"
                accept="image/png,image/jpeg,image/webp"
                aria-label={t('choose_photo')}
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  // The same file can be chosen again after a refusal.
                  event.target.value = '';
                  if (file) scaledPhoto(file, PHOTO_UPLOAD_MAX_SIDE_PX).then(send, () => { notify(t('photo_unreadable'), 'error'); });
                }}
              />
            </Button>
            {me.profile_image && (
              <Button color="error" onClick={() => { send(null); }} loading={photo.isPending && photo.variables === null}>
                {t('remove_photo')}
              </Button>
            )}
          </Stack>
        </Stack>
      </Stack>
    </SectionCard>
  );
}
