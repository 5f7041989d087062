import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';
import { IconButton, List, ListItem, ListItemText, Stack, Tooltip, Typography } from '@mui/material';
import type { Place } from '@rideway/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKey } from '../../api/client';
import { savedPlaceTitle, useEditPlace, useRemovePlace, useSavedPlaces, type SavedPlace } from '../../api/places';
import { useNotice } from '../../components/NoticeProvider';
import { PlaceNameDialog } from '../../components/PlaceNameDialog';
import { SectionCard } from '../../components/SectionCard';
import { PlaceSearch } from '../../components/PlaceSearch';

/**
 * Issue 17 point 12: the rider's saved places on the profile, the most used first: the drops
 * recorded at each trip's end and the places saved from place search. Each can be named (Home,
 * Work or a name of the rider's own) or removed. A new one (Home before the first trip) is added
 * here by place search, whose "save this place" names it.
 */
export function SavedPlacesCard() {
  const { t } = useTranslation();
  const places = useSavedPlaces();
  const edit = useEditPlace();
  const remove = useRemovePlace();
  const notify = useNotice();
  const [editing, setEditing] = useState<SavedPlace | null>(null);
  /** The address found to be added; the field empties once it is saved. */
  const [adding, setAdding] = useState<Place | null>(null);
  const removePlace = (place: SavedPlace) => {
    remove.mutate(place.id, {
      onSuccess: () => { notify(t('place_removed', { place: savedPlaceTitle(place, t) })); },
      onError: (error) => { notify(t(errorKey(error)), 'error'); },
    });
  };
  return (
    <SectionCard title={t('saved_places')}>
      {places.data?.length === 0 && <Typography color="text.secondary">{t('no_saved_places')}</Typography>}
      <List dense aria-label={t('saved_places')}>
        {places.data?.map((place) => {
          const title = savedPlaceTitle(place, t);
          return (
            <ListItem
              key={place.id}
              disableGutters
              secondaryAction={
                <Stack direction="row">
                  <Tooltip title={t('edit')}>
                    <IconButton aria-label={t('edit_place', { place: title })} onClick={() => { setEditing(place); }}>
                      <EditIcon />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('remove_place')}>
                    <IconButton aria-label={t('remove_place_named', { place: title })} color="error" disabled={remove.isPending} onClick={() => { removePlace(place); }}>
                      <DeleteIcon />
                    </IconButton>
                  </Tooltip>
                </Stack>
              }
              sx={{ pr: 11 }}
            >
              <ListItemText
                primary={title}
                secondary={`${place.label ?? place.name ? `${place.description} · ` : ''}${t('place_used', { count: place.count })}`}
                slotProps={{ primary: { noWrap: true }, secondary: { sx: { overflowWrap: 'anywhere' } } }}
              />
            </ListItem>
          );
        })}
      </List>
      <Stack spacing={0.5} sx={{ mt: 1 }}>
        <PlaceSearch label={t('add_place')} value={adding} onChange={setAdding} enabled offerSaved={false} onSaved={() => { setAdding(null); }} onError={(error) => { notify(t(errorKey(error)), 'error'); }} />
        <Typography variant="caption" color="text.secondary">{t('add_place_hint')}</Typography>
      </Stack>
      {editing && (
        <PlaceNameDialog
          title={t('name_place')}
          description={editing.description}
          initial={editing}
          onClose={() => { setEditing(null); }}
          onSave={async (naming) => {
            await edit.mutateAsync({ id: editing.id, ...naming });
            notify(t('place_saved'));
          }}
        />
      )}
    </SectionCard>
  );
}
