import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bookingOf } from '../../test/booking';
import { fakeApi, refusal } from '../../test/fake-api';
import { queryWrapper } from '../../test/render';
import { RatingPanel } from './RatingPanel';

const HTML = '<img src=x onerror="alert(1)"> <b>great</b>';

describe('rating with a comment (issue 17)', () => {
  it('sends the stars and the trimmed comment', async () => {
    const calls = fakeApi({ 'POST /api/bookings/b1/complete': { status: 200, body: bookingOf({ rating: 4, rating_comment: 'Smooth ride' }) } });
    const user = userEvent.setup();
    render(<RatingPanel booking={bookingOf({ status: 'PAID' })} />, { wrapper: queryWrapper().wrapper });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'submit_rating' }).disabled).toBe(true);
    // A click without a pointer position: MUI's Rating takes a positioned click on the chosen star as clearing it.
    fireEvent.click(screen.getByRole('radio', { name: '4 Stars' }));
    await user.type(screen.getByRole('textbox', { name: 'rating_comment' }), '  Smooth ride ');
    expect(screen.getByText('14/500')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'submit_rating' }));
    await waitFor(() => { expect(calls.map((call) => call.body)).toEqual([{ rating: 4, comment: 'Smooth ride' }]); });
  });

  it("shows the server's refusal", async () => {
    fakeApi({ 'POST /api/bookings/b1/complete': refusal(400, 'rating_comment_too_long', 'comment') });
    const user = userEvent.setup();
    render(<RatingPanel booking={bookingOf({ status: 'PAID' })} />, { wrapper: queryWrapper().wrapper });
    fireEvent.click(screen.getByRole('radio', { name: '5 Stars' }));
    await user.click(screen.getByRole('button', { name: 'submit_rating' }));
    expect(await screen.findByText('rating_comment_too_long')).toBeTruthy();
  });

  it('shows a comment with markup as the text typed, to the rider and to admins', () => {
    const done = bookingOf({ rating: 2, rating_comment: HTML });
    const { container, unmount } = render(<RatingPanel booking={done} />, { wrapper: queryWrapper().wrapper });
    expect(screen.getByText('you_rated')).toBeTruthy();
    expect(screen.getByTestId('rating-comment').textContent).toBe(HTML);
    expect(container.querySelector('img, b')).toBeNull();
    expect(screen.getByRole('img', { name: 'rating_of' })).toBeTruthy();
    unmount();
    render(<RatingPanel booking={done} viewer="admin" />, { wrapper: queryWrapper().wrapper });
    expect(screen.queryByText('you_rated')).toBeNull();
    expect(screen.getByText('rider_rating')).toBeTruthy();
    expect(screen.getByTestId('rating-comment').textContent).toBe(HTML);
  });

  it('shows admins nothing before the rider rates', () => {
    const { container } = render(<RatingPanel booking={bookingOf({ status: 'PAID' })} viewer="admin" />, { wrapper: queryWrapper().wrapper });
    expect(container.textContent).toBe('');
  });
});
