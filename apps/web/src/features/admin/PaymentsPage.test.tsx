import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { PaymentsPage } from './PaymentsPage';

const provider = (name: string, currencies: string[] | null, takesCurrency: boolean) => ({ name, testMode: true, checkoutLink: `/api/payments/${name}/checkout`, webhookUrl: `https://rides.example/api/payments/${name}/webhook`, savesCards: false, currencies, takesCurrency });

function renderPage() {
  const { wrapper: Queries } = queryWrapper();
  return render(
    <MemoryRouter>
      <Queries>
        <PaymentsPage />
      </Queries>
    </MemoryRouter>,
  );
}

describe("the admins' payments page (issue 22, point 3)", () => {
  it('warns about each configured provider that cannot take the settings currency, and only those', async () => {
    fakeApi({
      'GET /api/payments/providers': { status: 200, body: { currency: 'GBP', providers: [provider('stripe', null, true), provider('paystack', ['NGN', 'GHS', 'ZAR', 'KES', 'USD'], false), provider('flutterwave', ['NGN', 'GBP'], true)] } },
      'GET /api/payments/events': { status: 200, body: { events: [] } },
      'GET /api/settings': { status: 200, body: { settings: {} } },
    });
    renderPage();
    expect((await screen.findByTestId('provider-currency-paystack')).textContent).toBe('provider_currency_not_taken');
    expect(screen.queryByTestId('provider-currency-flutterwave')).toBeNull();
    expect(screen.queryByTestId('provider-currency-stripe')).toBeNull();
  });
});
