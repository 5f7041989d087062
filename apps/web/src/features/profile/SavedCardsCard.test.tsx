import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { SavedCardsCard } from './SavedCardsCard';

const CARD = { id: 7, provider: 'stripe', brand: 'visa', last4: '4242', expMonth: 3, expYear: 2031, createdAt: 1 };

describe("the profile's saved cards (issue 18)", () => {
  it('lists the cards on file by brand, last 4 digits and expiry, and removes one', async () => {
    let cards = [CARD];
    const calls = fakeApi({
      'GET /api/me/cards': () => ({ status: 200, body: { cards } }),
      'DELETE /api/me/cards/7': () => {
        cards = [];
        return { status: 200, body: { ok: true } };
      },
    });
    render(<SavedCardsCard />, { wrapper: queryWrapper().wrapper });
    expect(await screen.findByText('VISA •••• 4242')).toBeTruthy();
    expect(screen.getByText('card_expires')).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: 'remove_card' }));
    await waitFor(() => { expect(screen.getByText('no_saved_cards')).toBeTruthy(); });
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual(['/api/me/cards/7']);
  });
});
