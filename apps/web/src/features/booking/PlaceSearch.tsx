import { AUTOCOMPLETE_DEBOUNCE_MS, type Place } from '@rideway/domain';
import { Autocomplete, CircularProgress, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { placeOf, searchPlaces, type PlaceSuggestion } from '../../api/places';
import { PLACE_SEARCH_MIN_CHARS } from '../../config/ui-constants';

type Props = {
  label: string;
  value: Place | null;
  onChange: (place: Place | null) => void;
  /** Place search is a signed-in call; a visitor is told to sign in instead. */
  enabled: boolean;
  onError: (error: unknown) => void;
};

/** A place field: type a few letters, pick a suggestion, and its coordinates are looked up. */
export function PlaceSearch({ label, value, onChange, enabled, onError }: Props) {
  const { t } = useTranslation();
  const [input, setInput] = useState(value?.add ?? '');
  const [options, setOptions] = useState<PlaceSuggestion[]>([]);
  const [loading, setLoading] = useState(false);

  const keyword = input.trim();
  // Nothing is searched, and nothing offered, for a short keyword or the chosen place's own text.
  const searching = enabled && keyword.length >= PLACE_SEARCH_MIN_CHARS && keyword !== value?.add;

  useEffect(() => {
    if (!searching) return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      searchPlaces(keyword, controller.signal)
        .then(setOptions)
        .catch((error: unknown) => { if (!controller.signal.aborted) onError(error); })
        .finally(() => { if (!controller.signal.aborted) setLoading(false); });
    }, AUTOCOMPLETE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [keyword, searching, onError]);

  const chosen: PlaceSuggestion | null = value ? { place_id: `${value.lat},${value.lng}`, description: value.add } : null;
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
      onInputChange={(_event, next) => { setInput(next); }}
      onChange={(_event, suggestion) => {
        if (!suggestion) {
          onChange(null);
          return;
        }
        placeOf(suggestion).then(onChange, onError);
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
