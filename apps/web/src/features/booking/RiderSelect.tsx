import type { User } from '@rideway/contract';
import { Autocomplete, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useUsers } from '../../api/users';

const riderLabel = (rider: User): string => [`${rider.firstName} ${rider.lastName}`.trim(), rider.email || rider.mobile].filter(Boolean).join(' · ');

/** The admin form's rider (section 5): searched by name, email or mobile among the riders. */
export function RiderSelect({ value, onChange }: { value: string; onChange: (uid: string) => void }) {
  const { t } = useTranslation();
  const riders = useUsers('rider');
  const options = riders.data ?? [];
  return (
    <Autocomplete
      options={options}
      loading={riders.isPending}
      value={options.find((rider) => rider.id === value) ?? null}
      onChange={(_event, rider) => { onChange(rider?.id ?? ''); }}
      getOptionLabel={riderLabel}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      noOptionsText={t('no_users_available')}
      renderInput={(params) => <TextField {...params} label={t('rider')} />}
    />
  );
}
