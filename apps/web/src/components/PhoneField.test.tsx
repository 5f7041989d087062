import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { queryWrapper } from '../test/render';
import { PhoneField, usePhoneNumber } from './PhoneField';

function Harness({ initial }: { initial?: string }) {
  const phone = usePhoneNumber(initial);
  return (
    <>
      <PhoneField phone={phone} />
      <output>{phone.mobile}</output>
    </>
  );
}

const open = (settings: Record<string, unknown>, initial?: string) => {
  fakeApi({ 'GET /api/settings': { status: 200, body: { settings: { appName: 'Rideway', AllowCountrySelection: true, ...settings } } } });
  render(<Harness initial={initial} />, { wrapper: queryWrapper().wrapper });
};

describe('issue 17: the country picker starts on the settings country', () => {
  it('a UK installation offers +44 and stores 44 and the number, not 1 and the number', async () => {
    const user = userEvent.setup();
    open({ country: 'United Kingdom' });
    expect(await screen.findByText('+44')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'country' }).value).toBe('United Kingdom (+44)');
    await user.type(screen.getByRole('textbox', { name: 'mobile' }), '07700900123');
    expect(screen.getByRole('status').textContent).toBe('447700900123');
  });

  it('another country may be picked', async () => {
    const user = userEvent.setup();
    open({ country: 'United Kingdom' });
    await screen.findByText('+44');
    await user.clear(screen.getByRole('combobox', { name: 'country' }));
    await user.type(screen.getByRole('combobox', { name: 'country' }), 'Ireland');
    await user.click(await screen.findByRole('option', { name: 'Ireland (+353)' }));
    await user.type(screen.getByRole('textbox', { name: 'mobile' }), '861234567');
    expect(screen.getByRole('status').textContent).toBe('353861234567');
  });

  it('without country selection the settings country still gives the dial code; a stored number is split', async () => {
    open({ country: 'US', AllowCountrySelection: false }, '12025550123');
    expect(await screen.findByText('+1')).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'country' })).toBeNull();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'mobile' }).value).toBe('2025550123');
    expect(screen.getByRole('status').textContent).toBe('12025550123');
  });
});
