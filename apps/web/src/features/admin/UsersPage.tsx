import type { User } from '@rideway/contract';
import SearchIcon from '@mui/icons-material/Search';
import { Avatar, Box, InputAdornment, Link, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { USER_SEARCH_LIMIT } from '@rideway/contract';
import type { GridColDef } from '@mui/x-data-grid';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCollection } from '../../api/admin';
import { useCarTypes } from '../../api/catalogue';
import { useMe } from '../../api/session';
import { useFormErrors } from '../../hooks/use-form-errors';
import { useUsers, type ListedType } from '../../api/users';
import { useUserSearch } from '../../api/user-admin';
import { useMoney } from '../../hooks/use-money';
import { CrudTable } from './CrudTable';
import { FormDialog } from './FormDialog';
import { useSearchTerm } from './use-search-term';

type NewUser = { firstName: string; lastName: string; email: string; mobile: string; usertype: ListedType; password?: string; carType?: string; vehicleNumber?: string; fleetadmin?: string | null };
/** What a cell edit sends (the server's editUserRequestSchema, in part). */
type UserEdit = { firstName?: string; lastName?: string; email?: string; mobile?: string; approved?: boolean; carType?: string; vehicleNumber?: string };

const TITLES: Record<ListedType, string> = { rider: 'menu_riders', driver: 'menu_drivers', fleetadmin: 'menu_fleetadmins' };
/** The add form's fields a refusal can land on (issue 17); user_exists names none of them and is the form's. */
const ADD_FIELDS = ['firstName', 'lastName', 'email', 'mobile', 'password', 'carType', 'vehicleNumber', 'fleetadmin'] as const;

function AddUserDialog({ usertype, busy, onAdd, onClose }: { usertype: ListedType; busy: boolean; onAdd: (user: NewUser) => Promise<unknown>; onClose: () => void }) {
  const { t } = useTranslation();
  const carTypes = useCarTypes();
  const { data: me } = useMe();
  const fleets = useUsers('fleetadmin', usertype === 'driver' && me?.usertype === 'admin');
  const [user, setUserState] = useState<NewUser>({ firstName: '', lastName: '', email: '', mobile: '', usertype, password: '', ...(usertype === 'driver' ? { carType: '', vehicleNumber: '' } : {}) });
  const errors = useFormErrors(ADD_FIELDS);
  const setUser = (next: NewUser, changed: (typeof ADD_FIELDS)[number]) => {
    setUserState(next);
    errors.clear(changed);
  };
  const field = (key: 'firstName' | 'lastName' | 'email' | 'mobile' | 'password' | 'vehicleNumber', label: string, type = 'text') => (
    <TextField label={label} type={type} required={key !== 'password'} value={user[key] ?? ''} onChange={(event) => { setUser({ ...user, [key]: event.target.value }, key); }} {...errors.field(key)} />
  );
  const submit = () => {
    const { password, ...rest } = user;
    return onAdd(password ? { ...rest, password } : rest);
  };
  return (
    <FormDialog title={t('add_user')} busy={busy} onSubmit={submit} errors={errors} onClose={onClose}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        {field('firstName', t('firstName'))}
        {field('lastName', t('lastName'))}
        {field('email', t('email'), 'email')}
        {field('mobile', t('mobile'), 'tel')}
        {field('password', t('password'), 'password')}
        {usertype === 'driver' && (
          <>
            <TextField select required label={t('vehicle_type')} value={user.carType ?? ''} onChange={(event) => { setUser({ ...user, carType: event.target.value }, 'carType'); }} {...errors.field('carType')}>
              {(carTypes.data ?? []).map((carType) => <MenuItem key={carType.id} value={carType.name}>{carType.name}</MenuItem>)}
            </TextField>
            {field('vehicleNumber', t('vehicle_number'))}
            {me?.usertype === 'admin' && (
              <TextField select label={t('fleet_admin')} value={user.fleetadmin ?? ''} onChange={(event) => { setUser({ ...user, fleetadmin: event.target.value || null }, 'fleetadmin'); }} {...errors.field('fleetadmin')}>
                <MenuItem value="">{t('no_fleet')}</MenuItem>
                {(fleets.data ?? []).map((fleet) => <MenuItem key={fleet.id} value={fleet.id}>{`${fleet.firstName} ${fleet.lastName}`}</MenuItem>)}
              </TextField>
            )}
          </>
        )}
      </Stack>
    </FormDialog>
  );
}

/**
 * Section 2's user tables: riders, drivers and fleet admins for an admin; a fleet admin's own
 * drivers for a fleet admin (the server scopes the list and the adds).
 */
function UsersPage({ usertype }: { usertype: ListedType }) {
  const { t } = useTranslation();
  const money = useMoney();
  const carTypes = useCarTypes();
  const { term, typed, setTyped } = useSearchTerm();
  const users = useUserSearch(usertype, term);
  const { add, edit, remove } = useCollection<User, NewUser & UserEdit>('/api/users', ['users'], 'user');
  const [adding, setAdding] = useState(false);
  const { data: me } = useMe();
  // A fleet admin edits its drivers' names and vehicles; contacts and approval are an admin's (the server says so too).
  const admin = me?.usertype === 'admin';
  const columns: GridColDef<User>[] = [
    // Issue 20: the user's photo, or initials.
    { field: 'profile_image', headerName: t('profile_photo'), width: 70, sortable: false, filterable: false, renderCell: ({ row }) => (
        <Box sx={{ display: 'flex', alignItems: 'center', height: '100%' }}>
          <Avatar src={row.profile_image ?? undefined} alt="" sx={{ width: 32, height: 32, fontSize: 14, bgcolor: 'primary.main', color: 'primary.contrastText' }}>{`${row.firstName.slice(0, 1)}${row.lastName.slice(0, 1)}`.toUpperCase()}</Avatar>
        </Box>
      ) },
    // Issue 20 point 6: the name opens the user's page.
    { field: 'firstName', headerName: t('firstName'), editable: true, minWidth: 110, flex: 1, renderCell: ({ row }) => <Link component={RouterLink} to={`/users/${row.id}`}>{row.firstName}</Link> },
    { field: 'lastName', headerName: t('lastName'), editable: true, minWidth: 110, flex: 1 },
    { field: 'email', headerName: t('email'), editable: admin, minWidth: 170, flex: 1 },
    { field: 'mobile', headerName: t('mobile'), editable: admin, minWidth: 130 },
    ...(usertype === 'driver'
      ? [
          { field: 'carType', headerName: t('vehicle_type'), type: 'singleSelect', editable: true, width: 120, valueOptions: (carTypes.data ?? []).map((carType) => carType.name) } satisfies GridColDef<User>,
          { field: 'vehicleNumber', headerName: t('vehicle_number'), editable: true, width: 120 } satisfies GridColDef<User>,
          { field: 'driverActiveStatus', headerName: t('online'), type: 'boolean', width: 90 } satisfies GridColDef<User>,
        ]
      : []),
    { field: 'approved', headerName: t('approved'), type: 'boolean', editable: admin, width: 100 },
    { field: 'walletBalance', headerName: t('wallet_balance'), type: 'number', width: 120, valueFormatter: (value: number) => money(value) },
  ];
  /** Sends what the edit dialog changed, and only that. */
  const update = (row: User) => {
    const stored = users.data?.find((user) => user.id === row.id);
    const body: UserEdit = {};
    for (const field of ['firstName', 'lastName', 'email', 'mobile', 'approved', 'carType', 'vehicleNumber'] as const) {
      if (row[field] !== stored?.[field]) Object.assign(body, { [field]: row[field] ?? undefined });
    }
    return edit.mutateAsync({ id: row.id, body });
  };
  return (
    <>
      <CrudTable
        title={t(TITLES[usertype])}
        rows={users.data}
        columns={columns}
        emptyText={t('no_users_available')}
        exportName={`${usertype}s`}
        add={{ label: t('add_user'), onClick: () => { setAdding(true); } }}
        onUpdate={update}
        lowValue={['driverActiveStatus', 'walletBalance', 'mobile', 'carType']}
        onDelete={(row) => remove.mutateAsync(row.id)}
      >
        <TextField
          type="search"
          size="small"
          label={t('user_search')}
          value={typed}
          onChange={(event) => { setTyped(event.target.value); }}
          sx={{ mb: 2, width: { xs: '100%', sm: 360 } }}
          slotProps={{ htmlInput: { maxLength: 100 }, input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> } }}
        />
        {term.trim() !== '' && (users.data?.length ?? 0) >= USER_SEARCH_LIMIT && <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>{t('user_search_limited', { count: USER_SEARCH_LIMIT })}</Typography>}
      </CrudTable>
      {adding && (
        <AddUserDialog
          usertype={usertype}
          busy={add.isPending}
          onClose={() => { setAdding(false); }}
          onAdd={async (user) => {
            await add.mutateAsync(user);
            setAdding(false);
          }}
        />
      )}
    </>
  );
}

export const RidersPage = () => <UsersPage usertype="rider" />;
export const DriversPage = () => <UsersPage usertype="driver" />;
export const FleetAdminsPage = () => <UsersPage usertype="fleetadmin" />;
