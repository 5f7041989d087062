import type { CarType } from '@rideway/contract';
import { Box, FormControl, FormHelperText, InputLabel, MenuItem, Select } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

function CarTypeLabel({ carType, price }: { carType: CarType; price?: string }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, width: '100%' }}>
      {carType.image && <Box component="img" src={carType.image} alt="" sx={{ width: 48, height: 28, objectFit: 'contain' }} />}
      <Box component="span" sx={{ flexGrow: 1 }}>{carType.name}</Box>
      {price !== undefined && (
        <Box component="span" data-testid="car-type-price" sx={{ fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}>
          {price}
        </Box>
      )}
    </Box>
  );
}

type Props = {
  carTypes: CarType[];
  value: string;
  onChange: (name: string) => void;
  /** Issue 17, point 4: each car type's price for the trip, by name, once pickup and drop are set. */
  prices?: ReadonlyMap<string, string>;
  /** A line under the field: the prices on their way, or why there are none. */
  note?: string;
};

/** Section 2's vehicle type dropdown: the 'select car' placeholder first, then each type with its image (and its price for the trip). */
export function CarTypeSelect({ carTypes, value, onChange, prices, note }: Props) {
  const { t } = useTranslation();
  const labelId = useId();
  const noteId = useId();
  return (
    <FormControl fullWidth>
      <InputLabel id={labelId} shrink>
        {t('vehicle_type')}
      </InputLabel>
      <Select
        labelId={labelId}
        label={t('vehicle_type')}
        value={value}
        displayEmpty
        notched
        onChange={(event) => { onChange(event.target.value); }}
        {...(note ? { 'aria-describedby': noteId } : {})}
        renderValue={(name) => {
          const carType = carTypes.find((type) => type.name === name);
          return carType ? <CarTypeLabel carType={carType} price={prices?.get(carType.name)} /> : t('select_car');
        }}
      >
        <MenuItem value="">{t('select_car')}</MenuItem>
        {carTypes.map((carType) => (
          <MenuItem key={carType.id} value={carType.name}>
            <CarTypeLabel carType={carType} price={prices?.get(carType.name)} />
          </MenuItem>
        ))}
      </Select>
      {note && <FormHelperText id={noteId} role="status">{note}</FormHelperText>}
    </FormControl>
  );
}
