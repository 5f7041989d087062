import type { UserDetail } from '@rideway/contract';
import { Alert, Avatar, Box, Button, Chip, Container, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Grid, Link, List, ListItem, ListItemText, Rating, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { errorKey } from '../../api/client';
import { useMe } from '../../api/session';
import { useTwoFactorReset, useUserApproval, useUserDetail } from '../../api/user-admin';
import { useNotice } from '../../components/NoticeProvider';
import { SectionCard } from '../../components/SectionCard';
import { CardListSkeleton } from '../../components/Skeletons';
import { StatusChip } from '../../components/StatusChip';
import { useDates } from '../../hooks/use-dates';
import { useMoney } from '../../hooks/use-money';
import { KIND_LABELS, STATUS_COLOURS, STATUS_LABELS } from '../../utils/document-labels';

const LIST_OF: Record<string, string> = { rider: '/riders', driver: '/drivers', fleetadmin: '/fleetadmins' };
const MAX_REASON = 500;

/** Asks before approving or suspending; a suspension needs the reason the user reads. */
function ApprovalDialog({ id, name, approve, onClose }: { id: string; name: string; approve: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const decide = useUserApproval(id);
  const titleId = useId();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = () => {
    if (!approve && reason.trim() === '') {
      setMissing(true);
      return;
    }
    decide.mutate({ approved: approve, ...(reason.trim() ? { reason: reason.trim() } : {}) }, {
      onSuccess: () => {
        notify(t(approve ? 'user_approved_done' : 'user_suspended_done'));
        onClose();
      },
      onError: (error) => { notify(t(errorKey(error)), 'error'); },
    });
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t(approve ? 'user_approve_title' : 'user_suspend_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{name}</DialogContentText>
        <TextField
          autoFocus
          fullWidth
          multiline
          minRows={2}
          required={!approve}
          label={t('user_approval_reason')}
          value={reason}
          error={missing}
          helperText={missing ? t('suspend_reason_required') : t(approve ? 'user_approve_hint' : 'user_suspend_hint')}
          onChange={(event) => { setReason(event.target.value); setMissing(false); }}
          slotProps={{ htmlInput: { maxLength: MAX_REASON } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" color={approve ? 'primary' : 'error'} disabled={decide.isPending} onClick={submit}>{t(approve ? 'user_approve' : 'user_suspend')}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** Turning a staff member's two-factor sign-in off (lost phone, lost recovery codes): the reason is required, and told. */
function TwoFactorResetDialog({ id, name, onClose }: { id: string; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const reset = useTwoFactorReset(id);
  const titleId = useId();
  const [reason, setReason] = useState('');
  const [missing, setMissing] = useState(false);
  const submit = () => {
    if (reason.trim().length < 3) {
      setMissing(true);
      return;
    }
    reset.mutate(reason.trim(), {
      onSuccess: () => {
        notify(t('user_two_factor_reset_done'));
        onClose();
      },
      onError: (error) => { notify(t(errorKey(error)), 'error'); },
    });
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('user_two_factor_reset_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{name}</DialogContentText>
        <TextField
          autoFocus
          fullWidth
          multiline
          minRows={2}
          required
          label={t('user_approval_reason')}
          value={reason}
          error={missing}
          helperText={missing ? t('two_factor_reset_reason_required') : t('user_two_factor_reset_hint')}
          onChange={(event) => { setReason(event.target.value); setMissing(false); }}
          slotProps={{ htmlInput: { maxLength: MAX_REASON } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" color="error" disabled={reset.isPending} onClick={submit}>{t('user_two_factor_reset')}</Button>
      </DialogActions>
    </Dialog>
  );
}

function Field({ label, value }: { label: string; value: string | null | undefined }) {
  if (!value) return null;
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">{label}</Typography>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>{value}</Typography>
    </Box>
  );
}

function ProfileSection({ detail, canDecide, onDecide, onResetTwoFactor }: { detail: UserDetail; canDecide: boolean; onDecide: (approve: boolean) => void; onResetTwoFactor: () => void }) {
  const { t } = useTranslation();
  const { date } = useDates();
  const { user } = detail;
  const name = `${user.firstName} ${user.lastName}`.trim();
  return (
    <SectionCard title={t('profile')}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'flex-start' } }}>
        <Avatar src={user.profile_image ?? undefined} alt={t('user_photo_alt', { name })} sx={{ width: 96, height: 96, fontSize: 32, bgcolor: 'primary.main', color: 'primary.contrastText' }}>
          {`${user.firstName.slice(0, 1)}${user.lastName.slice(0, 1)}`.toUpperCase()}
        </Avatar>
        <Stack spacing={1} sx={{ flex: 1, minWidth: 0 }}>
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            <Chip size="small" label={t(`usertype_${user.usertype}`)} />
            <Chip size="small" color={user.approved ? 'success' : 'error'} label={t(user.approved ? 'user_status_approved' : 'user_status_suspended')} data-testid="approval-status" />
            {detail.twoFactor && <Chip size="small" variant="outlined" label={t(detail.twoFactor.enabled ? 'user_two_factor_on' : 'user_two_factor_off')} />}
          </Stack>
          <Field label={t('email')} value={user.email} />
          <Field label={t('mobile')} value={user.mobile} />
          <Typography variant="body2" color="text.secondary">{t('user_joined', { date: date(user.createdAt) })}</Typography>
          {user.usertype === 'driver' && (
            <Grid container spacing={1}>
              <Grid size={{ xs: 6, sm: 3 }}><Field label={t('vehicle_type')} value={user.carType} /></Grid>
              <Grid size={{ xs: 6, sm: 3 }}><Field label={t('vehicle_number')} value={user.vehicleNumber} /></Grid>
              <Grid size={{ xs: 6, sm: 3 }}><Field label={t('vehicle_make')} value={user.vehicleMake} /></Grid>
              <Grid size={{ xs: 6, sm: 3 }}><Field label={t('vehicle_model')} value={user.vehicleModel} /></Grid>
            </Grid>
          )}
          {canDecide && (
            <Stack direction="row" spacing={1} sx={{ pt: 1 }}>
              {user.approved ? (
                <Button variant="outlined" color="error" onClick={() => { onDecide(false); }}>{t('user_suspend')}</Button>
              ) : (
                <Button variant="contained" onClick={() => { onDecide(true); }}>{t('user_approve')}</Button>
              )}
              {detail.twoFactor?.enabled && <Button variant="outlined" color="error" onClick={onResetTwoFactor}>{t('user_two_factor_reset')}</Button>}
            </Stack>
          )}
        </Stack>
      </Stack>
    </SectionCard>
  );
}

function DocumentsSection({ detail, name }: { detail: UserDetail; name: string }) {
  const { t } = useTranslation();
  const { date } = useDates();
  const { documents } = detail.documents;
  return (
    <SectionCard title={t('user_documents')}>
      {documents.length === 0 ? (
        <Typography color="text.secondary">{t('user_no_documents')}</Typography>
      ) : (
        <Grid container spacing={2}>
          {documents.map((document) => (
            <Grid key={document.id} size={{ xs: 6, sm: 4, md: 3 }}>
              <Link href={document.image} target="_blank" rel="noopener" sx={{ display: 'block' }}>
                <Box component="img" src={document.image} alt={t('document_image_alt', { document: t(KIND_LABELS[document.kind]), name })} sx={{ display: 'block', width: '100%', height: 110, objectFit: 'contain', bgcolor: 'action.hover', borderRadius: 1, overflow: 'hidden', fontSize: 12 }} />
              </Link>
              <Typography variant="body2" sx={{ mt: 0.5 }}>{t(KIND_LABELS[document.kind])}</Typography>
              <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
                <Chip size="small" color={STATUS_COLOURS[document.status]} label={t(STATUS_LABELS[document.status])} />
                <Typography variant="caption" color="text.secondary">{t('document_expires_label', { date: document.expiresOn })}</Typography>
              </Stack>
              {document.reason && <Typography variant="caption" color="error" component="div">{`${t('document_reason')}: ${document.reason}`}</Typography>}
              <Typography variant="caption" color="text.secondary" component="div">{t('document_sent_on', { date: date(document.createdAt) })}</Typography>
            </Grid>
          ))}
        </Grid>
      )}
    </SectionCard>
  );
}

/** The driver's vehicles (issue 20 point 3): photo, car, review status and reason, the active one marked. */
function VehiclesSection({ detail }: { detail: UserDetail }) {
  const { t } = useTranslation();
  const { vehicles } = detail;
  return (
    <SectionCard title={t('user_vehicles')}>
      {vehicles.length === 0 ? (
        <Typography color="text.secondary">{t('user_no_vehicles')}</Typography>
      ) : (
        <Grid container spacing={2}>
          {vehicles.map((vehicle) => {
            // Make and model when the driver gave them (a sign-up's car has only its type).
            const makeAndModel = [vehicle.vehicleMake, vehicle.vehicleModel].filter(Boolean).join(' ');
            const car = makeAndModel || vehicle.carType;
            return (
              <Grid key={vehicle.id} size={{ xs: 6, sm: 4, md: 3 }}>
                {vehicle.image ? (
                  <Link href={vehicle.image} target="_blank" rel="noopener" sx={{ display: 'block' }}>
                    <Box component="img" src={vehicle.image} alt={t('vehicle_photo_alt', { vehicle: car })} sx={{ display: 'block', width: '100%', height: 110, objectFit: 'contain', bgcolor: 'action.hover', borderRadius: 1, overflow: 'hidden', fontSize: 12 }} />
                  </Link>
                ) : (
                  <Typography variant="caption" color="text.secondary" component="div" sx={{ height: 110, display: 'grid', placeItems: 'center', bgcolor: 'action.hover', borderRadius: 1 }}>{t('vehicle_no_photo')}</Typography>
                )}
                <Typography variant="body2" sx={{ mt: 0.5 }}>{makeAndModel ? `${makeAndModel} · ${vehicle.carType}` : vehicle.carType}</Typography>
                {vehicle.vehicleNumber && <Typography variant="caption" color="text.secondary" component="div">{vehicle.vehicleNumber}</Typography>}
                <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
                  <Chip size="small" color={STATUS_COLOURS[vehicle.status]} label={t(STATUS_LABELS[vehicle.status])} />
                  {vehicle.active && <Chip size="small" color="primary" label={t('vehicle_active')} />}
                </Stack>
                {vehicle.reason && <Typography variant="caption" color="error" component="div">{`${t('document_reason')}: ${vehicle.reason}`}</Typography>}
              </Grid>
            );
          })}
        </Grid>
      )}
    </SectionCard>
  );
}

function TripsSection({ detail }: { detail: UserDetail }) {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  const money = useMoney();
  const { trips } = detail;
  return (
    <SectionCard title={t('user_trips')}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>{trips.asRider === null ? t('user_trip_count_driven', { driver: trips.asDriver }) : t('user_trip_counts', { rider: trips.asRider, driver: trips.asDriver })}</Typography>
      {trips.recent.length === 0 ? (
        <Typography color="text.secondary">{t('user_no_trips')}</Typography>
      ) : (
        <TableContainer sx={{ overflowX: 'auto' }}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('booking_id')}</TableCell>
                <TableCell>{t('date')}</TableCell>
                <TableCell>{t('user_trip_as')}</TableCell>
                <TableCell>{t('user_trip_status')}</TableCell>
                <TableCell sx={{ minWidth: 200 }}>{`${t('pickup_location')} → ${t('drop_location')}`}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>{t('trip_cost')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {trips.recent.map((trip) => (
                <TableRow key={trip.id}>
                  <TableCell><Link component={RouterLink} to={`/bookings/${trip.id}`}>{trip.booking_id}</Link></TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{dateTime(trip.tripdate)}</TableCell>
                  <TableCell>{t(`usertype_${trip.role}`)}</TableCell>
                  <TableCell><StatusChip status={trip.status} /></TableCell>
                  <TableCell>{`${trip.pickupAddress} → ${trip.dropAddress}`}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>{money(trip.trip_cost, { currency: trip.currency })}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </SectionCard>
  );
}

function WalletSection({ detail }: { detail: UserDetail }) {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  const money = useMoney();
  const { wallet } = detail;
  return (
    <SectionCard title={t('user_wallet')}>
      <Typography variant="h5" component="p" sx={{ mb: 1 }}>{money(wallet.walletBalance)}</Typography>
      {wallet.recent.length === 0 ? (
        <Typography color="text.secondary">{t('user_no_wallet_entries')}</Typography>
      ) : (
        <List dense disablePadding>
          {wallet.recent.map((entry) => (
            <ListItem key={entry.id} disableGutters sx={{ gap: 2, alignItems: 'flex-start' }}>
              <ListItemText primary={t(`wallet_${entry.type}`)} secondary={`${dateTime(entry.date)}${entry.booking_id ? ` · ${entry.booking_id}` : ''}`} />
              <Typography sx={{ pt: 0.75, whiteSpace: 'nowrap' }} color={entry.type === 'Credit' ? 'success.main' : 'text.primary'}>{`${entry.type === 'Credit' ? '+' : '−'}${money(entry.amount, { currency: entry.currency })}`}</Typography>
            </ListItem>
          ))}
        </List>
      )}
    </SectionCard>
  );
}

function RatingsSection({ detail }: { detail: UserDetail }) {
  const { t } = useTranslation();
  const { date } = useDates();
  const { ratings } = detail;
  return (
    <SectionCard title={t('user_ratings')}>
      {ratings.userrating === null || ratings.count === 0 ? (
        <Typography color="text.secondary">{t('user_no_ratings')}</Typography>
      ) : (
        <>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
            <Rating value={ratings.userrating} precision={0.1} readOnly aria-hidden />
            <Typography variant="body2">{t('user_rating_average', { rating: ratings.userrating.toFixed(1), count: ratings.count })}</Typography>
          </Stack>
          <List dense disablePadding>
            {ratings.recent.map((rating) => (
              <ListItem key={rating.bookingId} disableGutters>
                <ListItemText primary={`${'★'.repeat(rating.rate)}${'☆'.repeat(5 - rating.rate)} · ${rating.booking_id}`} secondary={`${date(rating.at)}${rating.comment ? ` · ${rating.comment}` : ''}`} />
              </ListItem>
            ))}
          </List>
        </>
      )}
    </SectionCard>
  );
}

function HistorySection({ detail }: { detail: UserDetail }) {
  const { t } = useTranslation();
  const { dateTime } = useDates();
  return (
    <SectionCard title={t('user_status_history')}>
      {detail.statusHistory.length === 0 ? (
        <Typography color="text.secondary">{t('user_no_status_changes')}</Typography>
      ) : (
        <List dense disablePadding data-testid="status-history">
          {detail.statusHistory.map((change, index) => (
            <ListItem key={`${String(change.at)}-${String(index)}`} disableGutters>
              <ListItemText
                primary={`${t(change.approved ? 'user_status_approved' : 'user_status_suspended')}${change.reason ? `: ${change.reason}` : ''}`}
                secondary={`${dateTime(change.at)}${change.changedBy ? ` · ${t('user_changed_by', { name: change.changedBy.name })}` : ''}`}
              />
            </ListItem>
          ))}
        </List>
      )}
    </SectionCard>
  );
}

/**
 * Issue 20 point 6, /users/:id: one user as an admin (any user but an admin) or a fleet admin (its
 * own drivers) sees it: profile with photo, documents, vehicles, trips, wallet, ratings and approval history.
 * An admin approves the account, or suspends it with the reason the user reads.
 */
export function UserDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data: me } = useMe();
  const detail = useUserDetail(id);
  const [deciding, setDeciding] = useState<boolean | null>(null);
  const [resetting, setResetting] = useState(false);
  if (detail.isPending) return <Container maxWidth="lg" sx={{ py: 3 }}><CardListSkeleton /></Container>;
  if (detail.isError) return <Container maxWidth="lg" sx={{ py: 3 }}><Alert severity="error">{t(errorKey(detail.error))}</Alert></Container>;
  const { user } = detail.data;
  const name = `${user.firstName} ${user.lastName}`.trim();
  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      <Link component={RouterLink} to={LIST_OF[user.usertype] ?? '/drivers'} sx={{ display: 'inline-block', mb: 1 }}>{`← ${t('user_back_to_list')}`}</Link>
      <Typography variant="h5" component="h1" sx={{ mb: 2, overflowWrap: 'anywhere' }}>{name}</Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 8 }}><ProfileSection detail={detail.data} canDecide={me?.usertype === 'admin'} onDecide={setDeciding} onResetTwoFactor={() => { setResetting(true); }} /></Grid>
        <Grid size={{ xs: 12, md: 4 }}><WalletSection detail={detail.data} /></Grid>
        {user.usertype === 'driver' && <Grid size={12}><DocumentsSection detail={detail.data} name={name} /></Grid>}
        {user.usertype === 'driver' && <Grid size={12}><VehiclesSection detail={detail.data} /></Grid>}
        <Grid size={12}><TripsSection detail={detail.data} /></Grid>
        {user.usertype === 'driver' && <Grid size={{ xs: 12, md: 6 }}><RatingsSection detail={detail.data} /></Grid>}
        <Grid size={{ xs: 12, md: user.usertype === 'driver' ? 6 : 12 }}><HistorySection detail={detail.data} /></Grid>
      </Grid>
      {deciding !== null && <ApprovalDialog id={user.id} name={name} approve={deciding} onClose={() => { setDeciding(null); }} />}
      {resetting && <TwoFactorResetDialog id={user.id} name={name} onClose={() => { setResetting(false); }} />}
    </Container>
  );
}
