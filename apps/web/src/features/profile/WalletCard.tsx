import { List, ListItem, ListItemText, Typography } from '@mui/material';
import { isWithdrawRefund } from '@rideway/domain';
import { useTranslation } from 'react-i18next';
import { useLiveTopic } from '../../api/live';
import { useWallet } from '../../api/wallet';
import { WALLET_HISTORY_SHOWN } from '../../config/ui-constants';
import { useDates } from '../../hooks/use-dates';
import { walletLineText } from '../../utils/wallet-line';
import { SectionCard } from '../../components/SectionCard';
import { FigureSkeleton, LinesSkeleton } from '../../components/Skeletons';
import { useMoney } from '../../hooks/use-money';
import { TopUpForm } from './TopUpForm';

/** The own wallet: balance and its history, refreshed when a ledger entry arrives live; a rider tops it up by card. */
export function WalletCard({ canTopUp = false }: { canTopUp?: boolean }) {
  const { t } = useTranslation();
  const money = useMoney();
  const dates = useDates();
  const wallet = useWallet();
  useLiveTopic('user:me', (event) => {
    if (event.event === 'wallet') void wallet.refetch();
  });
  return (
    <SectionCard title={t('menu_wallet')}>
      {wallet.data ? (
        <Typography variant="h4" component="p" data-testid="wallet-balance" sx={{ fontWeight: 700, mb: 1 }}>
          {money(wallet.data.walletBalance)}
        </Typography>
      ) : (
        <FigureSkeleton />
      )}
      {canTopUp && <TopUpForm />}
      {wallet.isPending && <LinesSkeleton />}
      {wallet.data?.walletHistory.length === 0 && <Typography color="text.secondary">{t('no_data_available')}</Typography>}
      <List dense aria-label={t('wallet_history')}>
        {wallet.data?.walletHistory.slice(0, WALLET_HISTORY_SHOWN).map((entry) => (
          <ListItem key={entry.id} disableGutters secondaryAction={<Typography color={entry.type === 'Credit' ? 'success.main' : 'text.primary'}>{`${entry.type === 'Credit' ? '+' : '−'}${money(entry.amount, { currency: entry.currency })}`}</Typography>}>
            <ListItemText primary={walletLineText(t, entry, isWithdrawRefund(entry.txRef) ? 'wallet_withdraw_returned' : `wallet_${entry.type}`)} secondary={dates.dateTime(entry.date)} />
          </ListItem>
        ))}
      </List>
    </SectionCard>
  );
}
