import type { SavedPlace } from '@rideway/contract';
import { MAX_PLACE_NAME_LENGTH } from '@rideway/domain';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../api/client';
import { FormError } from './FormError';

/** What the rider calls a place, as the saved-places calls take it. */
export type PlaceNaming = { label: 'home' | 'work' | null; name: string | null };

type Choice = 'home' | 'work' | 'other';

type Props = {
  title: string;
  /** The address the place is saved at, shown for reference. */
  description: string;
  initial: Pick<SavedPlace, 'label' | 'name'>;
  onClose: () => void;
  /** Saves the naming; a refusal (a second Home, a bad name) is shown in the dialog. */
  onSave: (naming: PlaceNaming) => Promise<unknown>;
};

/**
 * Issue 17 point 12: naming a saved place: Home, Work, or a name of the rider's own (a blank name
 * leaves it unnamed). Shown by place search ("save this place") and by the profile's saved places.
 */
export function PlaceNameDialog({ title, description, initial, onClose, onSave }: Props) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<Choice>(initial.label ?? 'other');
  const [name, setName] = useState(initial.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setError(null);
    setSaving(true);
    const naming: PlaceNaming = choice === 'other' ? { label: null, name: name.trim() === '' ? null : name } : { label: choice, name: null };
    onSave(naming).then(onClose, (failure: unknown) => {
      setError(t(errorKey(failure)));
      setSaving(false);
    });
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" slotProps={{ paper: { component: 'form', onSubmit: submit } }}>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">{description}</Typography>
          <ToggleButtonGroup exclusive fullWidth color="primary" value={choice} aria-label={t('place_kind')} onChange={(_event, next: Choice | null) => { if (next) setChoice(next); }}>
            <ToggleButton value="home">{t('place_home')}</ToggleButton>
            <ToggleButton value="work">{t('place_work')}</ToggleButton>
            <ToggleButton value="other">{t('place_other')}</ToggleButton>
          </ToggleButtonGroup>
          {choice === 'other' && (
            <TextField label={t('place_name')} value={name} autoFocus onChange={(event) => { setName(event.target.value); }} slotProps={{ htmlInput: { maxLength: MAX_PLACE_NAME_LENGTH } }} helperText={t('place_name_hint')} />
          )}
          <FormError message={error} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button type="submit" variant="contained" loading={saving}>{t('save')}</Button>
      </DialogActions>
    </Dialog>
  );
}
