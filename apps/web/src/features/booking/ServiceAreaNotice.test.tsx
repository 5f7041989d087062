import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { outsideServiceArea, ServiceAreaNotice } from './ServiceAreaNotice';

/** A box around King's Cross. */
const kingsCross = [
  { lat: 51.52, lng: -0.14 },
  { lat: 51.52, lng: -0.11 },
  { lat: 51.54, lng: -0.11 },
  { lat: 51.54, lng: -0.14 },
];
const inside = { lat: 51.5308, lng: -0.1238 };
const outside = { lat: 51.4995, lng: -0.1248 };

describe('issue 16 point 6: the booking form warns of a pickup outside the service area', () => {
  it('is outside only for a chosen pickup beyond every area drawn', () => {
    expect(outsideServiceArea(outside, { serviceArea: [kingsCross] })).toBe(true);
    expect(outsideServiceArea(inside, { serviceArea: [kingsCross] })).toBe(false);
    expect(outsideServiceArea(null, { serviceArea: [kingsCross] })).toBe(false);
    // No area drawn, or the settings not read yet: nothing to warn of (the server still checks).
    expect(outsideServiceArea(outside, { serviceArea: [] })).toBe(false);
    expect(outsideServiceArea(outside, undefined)).toBe(false);
  });

  it('shows the translated key at the pickup once the settings say it is outside', async () => {
    fakeApi({ 'GET /api/settings': { status: 200, body: { settings: { appName: 'Rideway', serviceArea: [kingsCross] } } } });
    const { wrapper } = queryWrapper();
    const { rerender } = render(<ServiceAreaNotice pickup={outside} />, { wrapper });
    expect((await screen.findByRole('alert')).textContent).toBe('outside_service_area');
    rerender(<ServiceAreaNotice pickup={inside} />);
    await waitFor(() => { expect(screen.queryByRole('alert')).toBeNull(); });
  });
});
