import type { CarType } from '@rideway/contract';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMoney } from '../../hooks/use-money';

export type Choices = { parcelTypeIndex?: number; optionIndex?: number };

function ChoiceGroup({ label, choices, value, onChange }: { label: string; choices: CarType['options']; value: number; onChange: (index: number) => void }) {
  const money = useMoney();
  return (
    <FormControl>
      <FormLabel>{label}</FormLabel>
      <RadioGroup value={String(value)} onChange={(event) => { onChange(Number(event.target.value)); }}>
        {choices.map((choice, index) => (
          <FormControlLabel key={choice.description} value={String(index)} control={<Radio />} label={`${choice.description} (${money(choice.amount)})`} />
        ))}
      </RadioGroup>
    </FormControl>
  );
}

/** Section 2's parcel type and options chooser, for a car type that has either. */
export function ChoiceDialog({ carType, onChoose, onCancel }: { carType: CarType; onChoose: (choices: Choices) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [parcelTypeIndex, setParcelTypeIndex] = useState(0);
  const [optionIndex, setOptionIndex] = useState(0);
  return (
    <Dialog open onClose={onCancel} aria-labelledby="choice-title" fullWidth maxWidth="xs">
      <DialogTitle id="choice-title">{t('parcel_choice_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          {carType.parcelTypes.length > 0 && <ChoiceGroup label={t('parcel_type')} choices={carType.parcelTypes} value={parcelTypeIndex} onChange={setParcelTypeIndex} />}
          {carType.options.length > 0 && <ChoiceGroup label={t('parcel_option')} choices={carType.options} value={optionIndex} onChange={setOptionIndex} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('cancel')}</Button>
        <Button
          variant="contained"
          onClick={() => {
            onChoose({
              ...(carType.parcelTypes.length > 0 ? { parcelTypeIndex } : {}),
              ...(carType.options.length > 0 ? { optionIndex } : {}),
            });
          }}
        >
          {t('continue')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
