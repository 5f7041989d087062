import { Box, Button, Stack, Typography, type SxProps, type Theme } from '@mui/material';
import type { ReactNode } from 'react';

type Props = {
  /** The button's text, and the file input's name unless `inputLabel` names it. */
  label: string;
  inputLabel?: string;
  /** What is stored now, shown beside the button; null shows `emptyText`. */
  image: string | null;
  imageAlt: string;
  emptyText?: string;
  /** Turns the chosen file into the data URL that is sent (as it is, or scaled down). */
  read: (file: File) => Promise<string>;
  onImage: (dataUrl: string) => void;
  onUnreadable?: () => void;
  accept?: string;
  /** Opens the phone's rear camera at once. */
  camera?: boolean;
  icon?: ReactNode;
  busy?: boolean;
  previewSx: SxProps<Theme>;
};

/**
 * An image chosen from a file or the camera, beside what is stored: a car type's picture, a
 * driver's licence, a parcel's photo. The same file can be chosen again after a refusal.
 */
export function ImagePicker({ label, inputLabel = label, image, imageAlt, emptyText, read, onImage, onUnreadable, accept = 'image/*', camera = false, icon, busy = false, previewSx }: Props) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
      {image ? (
        <Box component="img" src={image} alt={imageAlt} sx={previewSx} />
      ) : (
        emptyText && (
          <Typography variant="body2" color="text.secondary" sx={{ flex: '0 0 auto' }}>
            {emptyText}
          </Typography>
        )
      )}
      <Button component="label" variant={image || !emptyText ? 'outlined' : 'contained'} startIcon={icon} disabled={busy}>
        {label}
        <input
          hidden
          type="file"
          accept={accept}
          aria-label={inputLabel}
          {...(camera ? { capture: 'environment' } : {})}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) read(file).then(onImage, () => { onUnreadable?.(); });
          }}
        />
      </Button>
    </Stack>
  );
}
