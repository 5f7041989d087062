import { AUTOCOMPLETE_DEBOUNCE_MS, type Place } from '@rideway/domain';
import HomeIcon from '@mui/icons-material/HomeOutlined';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import StarIcon from '@mui/icons-material/StarBorderOutlined';
import BookmarkAddIcon from '@mui/icons-material/BookmarkAddOutlined';
import WorkIcon from '@mui/icons-material/WorkOutline';
import { Autocomplete, Box, CircularProgress, IconButton, TextField, Tooltip, Typography } from '@mui/material';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { newPlaceSession, placeOf, savedPlaceTitle, searchPlaces, useSavedPlaces, useSavePlace, type PlaceSuggestion, type SavedPlace } from '../api/places';
import { useMe } from '../api/session';
import { useNotice } from './NoticeProvider';
import { PlaceNameDialog } from './PlaceNameDialog';
import { PLACE_SEARCH_MIN_CHARS } from '../config/ui-constants';

/** The field's search session, started if there is none. */
const sessionOf = (session: RefObject<string | null>): string => (session.current ??= newPlaceSession());

/** A choice in the list: one of the rider's saved places, or a suggestion of the maps provider. */
type Option = { kind: 'saved'; place: SavedPlace } | { kind: 'found'; suggestion: PlaceSuggestion };

/** How many saved places show before anything is typed: the most used ones. */
const SAVED_SHOWN = 8;

const optionText = (option: Option): string => (option.kind === 'saved' ? option.place.description : option.suggestion.description);
const optionKey = (option: Option): string => (option.kind === 'saved' ? `saved:${String(option.place.id)}` : `found:${option.suggestion.place_id}`);

/**
 * Issue 17 point 12: the saved places that answer a keyword (its title, Home or Work in the
 * rider's language, its name or its address contains it), in the server's order, the most used first.
 */
function savedPlacesFor(places: readonly SavedPlace[], keyword: string, t: (key: string) => string): SavedPlace[] {
  const wanted = keyword.trim().toLocaleLowerCase();
  if (wanted === '') return places.slice(0, SAVED_SHOWN);
  return places.filter((place) => `${savedPlaceTitle(place, t)}\n${place.description}`.toLocaleLowerCase().includes(wanted));
}

function SavedIcon({ place }: { place: SavedPlace }) {
  const Icon = place.label === 'home' ? HomeIcon : place.label === 'work' ? WorkIcon : place.name ? StarIcon : PlaceIcon;
  return <Icon fontSize="small" color="action" sx={{ mr: 1.5, flexShrink: 0 }} />;
}

type Props = {
  label: string;
  value: Place | null;
  onChange: (place: Place | null) => void;
  /** Place search is a signed-in call; a visitor is told to sign in instead. */
  enabled: boolean;
  onError: (error: unknown) => void;
  /** Offer the rider's saved places (the booking form); a field that adds a place does not. */
  offerSaved?: boolean;
  /** Called once the chosen place was saved ("save this place"). */
  onSaved?: () => void;
};

/**
 * A place field: type a few letters, pick a suggestion, and its coordinates are looked up. Each
 * search is one session (a token made when typing starts, sent with every search and with the
 * chosen place's lookup, then dropped): a provider that bills by session bills it once.
 *
 * A rider's saved places come first (issue 17 point 12): all of them, the most used first, when
 * the field is focused with nothing typed, and those that match while typing, above the
 * provider's suggestions. Picking one sets its point at once, with no lookup.
 */
export function PlaceSearch({ label, value, onChange, enabled, onError, offerSaved = true, onSaved }: Props) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const isRider = enabled && me?.usertype === 'rider';
  const saved = useSavedPlaces(isRider);
  const savePlace = useSavePlace();
  const notify = useNotice();
  /** The chosen place being named, to be saved ("save this place"). */
  const [naming, setNaming] = useState(false);
  const [input, setInput] = useState(value?.add ?? '');
  const [options, setOptions] = useState<PlaceSuggestion[]>([]);
  const [loading, setLoading] = useState(false);
  /** The search session under way in this field, if any. */
  const session = useRef<string | null>(null);

  /** The suggestion last chosen, whose text fills the field while its place is looked up. */
  const [picked, setPicked] = useState<string | null>(null);

  const keyword = input.trim();
  // Nothing is searched, and nothing offered, for a short keyword or the chosen place's own text
  // (also while it is being looked up: that search would open a session no one ends).
  const isChosenText = keyword === value?.add || keyword === picked?.trim();
  const searching = enabled && keyword.length >= PLACE_SEARCH_MIN_CHARS && !isChosenText;

  useEffect(() => {
    if (!searching) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      searchPlaces(keyword, controller.signal, sessionOf(session))
        .then(setOptions)
        .catch((error: unknown) => { if (!controller.signal.aborted) onError(error); })
        .finally(() => { if (!controller.signal.aborted) setLoading(false); });
    }, AUTOCOMPLETE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [keyword, searching, onError]);

  // With the chosen place's text in the field, focusing it offers every saved place, as an empty field does.
  const savedShown = useMemo(() => (offerSaved ? savedPlacesFor(saved.data ?? [], isChosenText ? '' : keyword, t) : []), [offerSaved, saved.data, isChosenText, keyword, t]);
  const shown = useMemo<Option[]>(() => {
    // A suggestion that is a saved place shown above is not offered twice.
    const savedTexts = new Set(savedShown.map((place) => place.description));
    const found = searching ? options.filter((suggestion) => !savedTexts.has(suggestion.description)) : [];
    return [...savedShown.map((place) => ({ kind: 'saved' as const, place })), ...found.map((suggestion) => ({ kind: 'found' as const, suggestion }))];
  }, [savedShown, searching, options]);

  // A chosen place the rider has not saved yet may be saved from the field.
  const canSave = isRider && value !== null && value.add.trim() !== '' && saved.data !== undefined && !saved.data.some((place) => place.description === value.add || (place.lat === value.lat && place.lng === value.lng));

  // One object per chosen place: a new one each render would read to the Autocomplete as a new
  // value and reset the text being typed over it.
  const chosen = useMemo<Option | null>(() => (value ? { kind: 'found', suggestion: { place_id: `${String(value.lat)},${String(value.lng)}`, description: value.add } } : null), [value]);
  return (
    <>
      <Autocomplete<Option>
        options={shown}
        value={chosen}
        inputValue={input}
        openOnFocus={savedShown.length > 0}
        filterOptions={(all) => all}
        groupBy={(option) => (option.kind === 'saved' ? t('saved_places') : t('search_results'))}
        getOptionLabel={optionText}
        getOptionKey={optionKey}
        isOptionEqualToValue={(option, other) => optionKey(option) === optionKey(other)}
        loading={loading}
        noOptionsText={enabled ? t('no_places_found') : t('sign_in_to_search')}
        renderOption={({ key, ...props }, option) => (
          <Box component="li" key={key} {...props}>
            {option.kind === 'saved' ? (
              <>
                <SavedIcon place={option.place} />
                <Box sx={{ minWidth: 0 }}>
                  <Typography noWrap sx={{ fontWeight: 500 }}>{savedPlaceTitle(option.place, t)}</Typography>
                  {(option.place.label ?? option.place.name) !== null && <Typography variant="caption" color="text.secondary" noWrap component="div">{option.place.description}</Typography>}
                </Box>
              </>
            ) : (
              option.suggestion.description
            )}
          </Box>
        )}
        onInputChange={(_event, next, reason) => {
          // Typing starts a search session; choosing a suggestion (a reset) does not.
          if (reason === 'input') sessionOf(session);
          setInput(next);
        }}
        onChange={(_event, option) => {
          // The choice (or the clearing) ends the search: the next typing is a new session.
          const ended = session.current ?? undefined;
          session.current = null;
          setPicked(option ? optionText(option) : null);
          if (!option) {
            onChange(null);
            return;
          }
          if (option.kind === 'saved') {
            onChange({ lat: option.place.lat, lng: option.place.lng, add: option.place.description });
            return;
          }
          placeOf(option.suggestion, ended).then(onChange, onError);
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            label={label}
            slotProps={{
              input: {
                ...params.InputProps,
                endAdornment: (
                  <>
                    {loading && <CircularProgress color="inherit" size={18} />}
                    {canSave && (
                      <Tooltip title={t('save_place')}>
                        <IconButton size="small" aria-label={t('save_place')} onClick={() => { setNaming(true); }}>
                          <BookmarkAddIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    {params.InputProps.endAdornment}
                  </>
                ),
              },
            }}
          />
        )}
      />
      {naming && value && (
        <PlaceNameDialog
          title={t('save_place')}
          description={value.add}
          initial={{ label: null, name: null }}
          onClose={() => { setNaming(false); }}
          onSave={async (named) => {
            await savePlace.mutateAsync({ description: value.add, lat: value.lat, lng: value.lng, ...named });
            notify(t('place_saved'));
            onSaved?.();
          }}
        />
      )}
    </>
  );
}
