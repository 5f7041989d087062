import type { CarType } from '@rideway/contract';
import { Box, FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

function CarTypeLabel({ carType }: { carType: CarType }) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
      {carType.image && <Box component="img" src={carType.image} alt="" sx={{ width: 48, height: 28, objectFit: 'contain' }} />}
      {carType.name}
    </Box>
  );
}

/** Section 2's vehicle type dropdown: the 'select car' placeholder first, then each type with its image. */
export function CarTypeSelect({ carTypes, value, onChange }: { carTypes: CarType[]; value: string; onChange: (name: string) => void }) {
  const { t } = useTranslation();
  const labelId = useId();
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
        renderValue={(name) => {
          const carType = carTypes.find((type) => type.name === name);
          return carType ? <CarTypeLabel carType={carType} /> : t('select_car');
        }}
      >
        <MenuItem value="">{t('select_car')}</MenuItem>
        {carTypes.map((carType) => (
          <MenuItem key={carType.id} value={carType.name}>
            <CarTypeLabel carType={carType} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
