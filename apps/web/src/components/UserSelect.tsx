import type { User } from '@rideway/contract';
import { Autocomplete, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useUsers, type ListedType } from '../api/users';
import type { FieldErrorProps } from '../hooks/use-form-errors';

/**
 * A user searched by name, email or mobile: the rider an admin books for, or the rider or driver
 * whose wallet is credited. Without a type every listed user is offered, each with its type.
 * `errorProps` shows the form's error for the user chosen (issue 17).
 */
export function UserSelect({ usertype, label, value, onChange, errorProps }: { usertype?: ListedType; label: string; value: string; onChange: (uid: string) => void; errorProps?: FieldErrorProps }) {
  const { t } = useTranslation();
  const users = useUsers(usertype);
  const options = users.data ?? [];
  const labelOf = (user: User): string => {
    const name = [`${user.firstName} ${user.lastName}`.trim(), user.email || user.mobile].filter(Boolean).join(' · ');
    return usertype ? name : `${name} · ${t(`usertype_${user.usertype}`)}`;
  };
  return (
    <Autocomplete
      id={errorProps?.id}
      options={options}
      loading={users.isPending}
      value={options.find((user) => user.id === value) ?? null}
      onChange={(_event, user) => { onChange(user?.id ?? ''); }}
      getOptionLabel={labelOf}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      noOptionsText={t('no_users_available')}
      renderInput={(params) => <TextField {...params} label={label} error={errorProps?.error} helperText={errorProps?.helperText} />}
    />
  );
}
