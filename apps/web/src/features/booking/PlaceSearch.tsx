import { AUTOCOMPLETE_DEBOUNCE_MS, type Place } from '@rideway/domain';
import { Autocomplete, CircularProgress, TextField } from '@mui/material';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { newPlaceSession, placeOf, searchPlaces, type PlaceSuggestion } from '../../api/places';
import { PLACE_SEARCH_MIN_CHARS } from '../../config/ui-constants';

/** The field's search session, started if there is none. */
const sessionOf = (session: RefObject<string | null>): string => (session.current ??= newPlaceSession());

type Props = {
  label: string;
  value: Place | null;
  onChange: (place: Place | null) => void;
  /** Place search is a signed-in call; a visitor is told to sign in instead. */
  enabled: boolean;
  onError: (error: unknown) => void;
};

/**
 * A place field: type a few letters, pick a suggestion, and its coordinates are looked up. Each
 * search is one session (a token made when typing starts, sent with every search and with the
 * chosen place's lookup, then dropped): a provider that bills by session bills it once.
 */
export function PlaceSearch({ label, value, onChange, enabled, onError }: Props) {
  const { t } = useTranslation();
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
  const searching = enabled && keyword.length >= PLACE_SEARCH_MIN_CHARS && keyword !== value?.add && keyword !== picked?.trim();

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

  // One object per chosen place: a new one each render would read to the Autocomplete as a new
  // value and reset the text being typed over it.
  const chosen = useMemo<PlaceSuggestion | null>(() => (value ? { place_id: `${value.lat},${value.lng}`, description: value.add } : null), [value]);
  return (
    <Autocomplete
      options={searching ? options : []}
      value={chosen}
      inputValue={input}
      filterOptions={(all) => all}
      getOptionLabel={(option) => option.description}
      isOptionEqualToValue={(option, other) => option.place_id === other.place_id}
      loading={loading}
      noOptionsText={enabled ? t('no_places_found') : t('sign_in_to_search')}
      onInputChange={(_event, next, reason) => {
        // Typing starts a search session; choosing a suggestion (a reset) does not.
        if (reason === 'input') sessionOf(session);
        setInput(next);
      }}
      onChange={(_event, suggestion) => {
        // The choice (or the clearing) ends the search: the next typing is a new session.
        const ended = session.current ?? undefined;
        session.current = null;
        setPicked(suggestion?.description ?? null);
        if (!suggestion) {
          onChange(null);
          return;
        }
        placeOf(suggestion, ended).then(onChange, onError);
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
                  {params.InputProps.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}
