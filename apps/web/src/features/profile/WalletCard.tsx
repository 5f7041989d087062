import { List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useLiveTopic } from '../../api/live';
import { useWallet } from '../../api/wallet';
import { WALLET_HISTORY_SHOWN } from '../../config/ui-constants';
import { dateTimeText } from '../../utils/date-text';
import { SectionCard } from '../../components/SectionCard';
import { useMoney } from '../../hooks/use-money';
import { TopUpForm } from './TopUpForm';

/** The own wallet: balance and its history, refreshed when a ledger entry arrives live; a rider tops it up by card. */
export function WalletCard({ canTopUp = false }: { canTopUp?: boolean }) {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const wallet = useWallet();
  useLiveTopic('user:me', (event) => {
    if (event.event === 'wallet') void wallet.refetch();
  });
  return (
    <SectionCard title={t('menu_wallet')}>
      <Typography variant="h4" component="p" data-testid="wallet-balance" sx={{ fontWeight: 700, mb: 1 }}>
        {wallet.data ? money(wallet.data.walletBalance) : '…'}
      </Typography>
      {canTopUp && <TopUpForm />}
      {wallet.data?.walletHistory.length === 0 && <Typography color="text.secondary">{t('no_data_available')}</Typography>}
      <List dense aria-label={t('wallet_history')}>
        {wallet.data?.walletHistory.slice(0, WALLET_HISTORY_SHOWN).map((entry) => (
          <ListItem key={entry.id} disableGutters secondaryAction={<Typography color={entry.type === 'Credit' ? 'success.main' : 'text.primary'}>{`${entry.type === 'Credit' ? '+' : '−'}${money(entry.amount)}`}</Typography>}>
            <ListItemText primary={t(`wallet_${entry.type}`)} secondary={dateTimeText(entry.date, i18n.language)} />
          </ListItem>
        ))}
      </List>
    </SectionCard>
  );
}
