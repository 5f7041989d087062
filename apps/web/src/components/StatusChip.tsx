import type { BookingStatus } from '@rideway/domain';
import { Chip, type ChipProps } from '@mui/material';
import { useTranslation } from 'react-i18next';

const COLOURS: Record<BookingStatus, ChipProps['color']> = {
  PAYMENT_PENDING: 'warning',
  NEW: 'info',
  ACCEPTED: 'primary',
  ARRIVED: 'primary',
  STARTED: 'primary',
  REACHED: 'secondary',
  PENDING: 'warning',
  PAID: 'success',
  COMPLETE: 'success',
  CANCELLED: 'default',
};

export function StatusChip({ status }: { status: BookingStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={COLOURS[status]} label={t(`status_${status}`)} data-status={status} />;
}
