import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutline';
import { Button, IconButton, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

type Field<Item> = { key: keyof Item & string; label: string; type: 'text' | 'number' };

/** A list of small records edited in place: parcel types, options (description, amount), cancelSlab. */
export function PairListEditor<Item extends Record<string, string | number>>({ title, items, fields, blank, onChange }: { title: string; items: Item[]; fields: [Field<Item>, Field<Item>]; blank: Item; onChange: (items: Item[]) => void }) {
  const { t } = useTranslation();
  const set = (index: number, key: keyof Item & string, value: string, type: 'text' | 'number') => {
    onChange(items.map((item, at) => (at === index ? { ...item, [key]: type === 'number' ? Number(value) : value } : item)));
  };
  return (
    <Stack spacing={1} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle2">
        {title}
      </Typography>
      {items.map((item, index) => (
        // The position is the identity: these lists have no other key before they are saved.
        <Stack key={index} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          {fields.map((field) => (
            <TextField
              key={field.key}
              size="small"
              label={`${field.label} ${index + 1}`}
              type={field.type}
              value={item[field.key]}
              onChange={(event) => { set(index, field.key, event.target.value, field.type); }}
              slotProps={field.type === 'number' ? { htmlInput: { min: 0, step: 'any' } } : undefined}
              sx={{ flex: field.type === 'text' ? 2 : 1 }}
            />
          ))}
          <IconButton aria-label={`${t('remove')} ${index + 1}`} onClick={() => { onChange(items.filter((_item, at) => at !== index)); }}>
            <RemoveIcon />
          </IconButton>
        </Stack>
      ))}
      <Button size="small" startIcon={<AddIcon />} onClick={() => { onChange([...items, blank]); }} sx={{ alignSelf: 'flex-start' }}>
        {`${t('add')}: ${title}`}
      </Button>
    </Stack>
  );
}
