import type { Booking } from '@rideway/contract';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useUsers } from '../../api/users';

/** Section 4: an admin picks an approved driver of the booking's car type. */
export function AssignDriverDialog({ booking, onAssign, onClose, busy }: { booking: Booking; onAssign: (driver: string) => void; onClose: () => void; busy: boolean }) {
  const { t } = useTranslation();
  const drivers = useUsers('driver');
  const matching = (drivers.data ?? []).filter((driver) => driver.carType === booking.carType && driver.approved);
  return (
    <Dialog open onClose={onClose} aria-labelledby="assign-title" fullWidth maxWidth="xs">
      <DialogTitle id="assign-title">{t('assign_driver')}</DialogTitle>
      <DialogContent>
        {drivers.isSuccess && matching.length === 0 && <Typography>{t('no_users_available')}</Typography>}
        <List aria-labelledby="assign-title">
          {matching.map((driver) => (
            <ListItemButton key={driver.id} disabled={busy} onClick={() => { onAssign(driver.id); }}>
              <ListItemText primary={`${driver.firstName} ${driver.lastName}`} secondary={driver.vehicleNumber ?? undefined} />
            </ListItemButton>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
