import type { Booking, User } from '@rideway/contract';
import { canShowAssignDriver, canShowCancel, canShowPayNow, cancelNeedsReasonDialog, DELAYED_CANCEL_MS, INCOMPLETE_BOOKING_REASON } from '@rideway/domain';
import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertDialog } from '../AlertDialog';
import { errorKey } from '../../api/client';
import { useBookingAction } from '../../api/bookings';
import { useSettings } from '../../api/settings';
import { PaymentDialog } from '../PaymentDialog';
import { AssignDriverDialog } from './AssignDriverDialog';
import { CancelDialog } from './CancelDialog';

/** The section 4 actions of a booking, each shown only when its rule allows it. */
export function BookingActions({ booking, me }: { booking: Booking; me: User }) {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  const action = useBookingAction();
  const [dialog, setDialog] = useState<'cancel' | 'pay' | 'assign' | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const run = (kind: 'cancel' | 'assign', body: Record<string, unknown>, success?: string) => {
    action.mutate(
      { id: booking.id, action: kind, body },
      {
        onSuccess: () => {
          setDialog(null);
          if (success) setAlert(t(success));
        },
        onError: (error) => {
          setDialog(null);
          setAlert(t(errorKey(error)));
        },
      },
    );
  };
  // Section 4: a PAYMENT_PENDING booking's cancel is sent after a delay, with the fixed reason.
  const cancel = () => {
    if (cancelNeedsReasonDialog(booking.status)) setDialog('cancel');
    else setTimeout(() => { run('cancel', { reason: INCOMPLETE_BOOKING_REASON }); }, DELAYED_CANCEL_MS);
  };
  const autoDispatch = settings?.autoDispatch ?? true;
  return (
    <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
      {canShowCancel(booking.status, me.usertype) && (
        <Button size="small" color="error" variant="outlined" onClick={cancel} disabled={action.isPending}>
          {t('cancel_booking')}
        </Button>
      )}
      {canShowPayNow(booking.status, me.usertype) && (
        <Button size="small" variant="contained" onClick={() => { setDialog('pay'); }}>
          {t('pay_now')}
        </Button>
      )}
      {canShowAssignDriver(booking.status, me.usertype, autoDispatch) && (
        <Button size="small" variant="outlined" onClick={() => { setDialog('assign'); }}>
          {t('assign_driver')}
        </Button>
      )}
      {dialog === 'cancel' && <CancelDialog busy={action.isPending} onClose={() => { setDialog(null); }} onCancel={(reason) => { run('cancel', { reason }); }} />}
      {dialog === 'pay' && <PaymentDialog bookingId={booking.id} onClose={() => { setDialog(null); }} />}
      {dialog === 'assign' && <AssignDriverDialog booking={booking} busy={action.isPending} onClose={() => { setDialog(null); }} onAssign={(driver) => { run('assign', { driver }, 'driver_assigned'); }} />}
      <AlertDialog message={alert} onClose={() => { setAlert(null); }} />
    </Stack>
  );
}
