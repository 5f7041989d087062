import type { Place } from '@rideway/domain';
import { Autocomplete, CircularProgress, TextField } from '@mui/material';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { placeOf, searchPlaces, type PlaceSuggestion } from '../../api/places';

/** Section 2: suggestions are asked for 200 ms after the last keystroke, not on each one. */
export const PLACE_SEARCH_DEBOUNCE_MS = 200;

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

  useEffect(() => {
    const keyword = input.trim();
    if (!enabled || keyword.length < 2 || keyword === value?.add) {
      setOptions([]);
      return undefined;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      searchPlaces(keyword, controller.signal)
        .then(setOptions)
        .catch((error: unknown) => { if (!controller.signal.aborted) onError(error); })
        .finally(() => { if (!controller.signal.aborted) setLoading(false); });
    }, PLACE_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [input, enabled, value?.add, onError]);

  const chosen: PlaceSuggestion | null = value ? { place_id: `${value.lat},${value.lng}`, description: value.add } : null;
  return (
    <Autocomplete
      options={options}
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
