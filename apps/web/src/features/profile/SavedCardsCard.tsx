import { Button, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useRemoveCard, useSavedCards } from '../../api/payments';
import { SectionCard } from '../../components/SectionCard';
import { LinesSkeleton } from '../../components/Skeletons';

/** The rider's cards on file (brand, last 4 digits, expiry), each removable. */
export function SavedCardsCard() {
  const { t } = useTranslation();
  const cards = useSavedCards();
  const remove = useRemoveCard();
  return (
    <SectionCard title={t('saved_cards')}>
      {cards.isPending && <LinesSkeleton lines={1} />}
      {cards.data?.length === 0 && <Typography color="text.secondary">{t('no_saved_cards')}</Typography>}
      <List dense aria-label={t('saved_cards')}>
        {cards.data?.map((card) => (
          <ListItem key={card.id} disableGutters secondaryAction={<Button color="error" disabled={remove.isPending} onClick={() => { remove.mutate(card.id); }}>{t('remove_card')}</Button>}>
            <ListItemText primary={`${card.brand.toUpperCase()} •••• ${card.last4}`} secondary={t('card_expires', { month: String(card.expMonth).padStart(2, '0'), year: card.expYear })} />
          </ListItem>
        ))}
      </List>
    </SectionCard>
  );
}
