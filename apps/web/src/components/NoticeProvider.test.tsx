import { Button } from '@mui/material';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NOTICE_AUTO_HIDE_MS } from '../config/ui-constants';
import { NoticeProvider, useNotice } from './NoticeProvider';

function Page({ onOther }: { onOther: () => void }) {
  const notify = useNotice();
  return (
    <>
      <Button onClick={() => { notify('Profile updated.'); }}>Save</Button>
      <Button onClick={() => { notify('demo_mode', 'error'); }}>Delete</Button>
      <Button onClick={onOther}>Other</Button>
    </>
  );
}

const renderPage = () => {
  const onOther = vi.fn();
  render(
    <NoticeProvider>
      <Page onOther={onOther} />
    </NoticeProvider>,
  );
  return onOther;
};

describe('notices (issue 17)', () => {
  it('shows a success as a status that blocks nothing and goes away by itself', () => {
    vi.useFakeTimers();
    const onOther = renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const notice = screen.getByRole('status');
    expect(notice.textContent).toContain('Profile updated.');
    // Not a dialog: no modal, the page keeps the focus and its buttons work.
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Other' }));
    expect(onOther).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('notice')).toBeTruthy();
    act(() => { vi.advanceTimersByTime(NOTICE_AUTO_HIDE_MS - 500); });
    expect(screen.getByTestId('notice')).toBeTruthy();
    act(() => { vi.advanceTimersByTime(1000); });
    // Then its closing transition.
    act(() => { vi.advanceTimersByTime(1000); });
    expect(screen.queryByText('Profile updated.')).toBeNull();
  });

  it('keeps an error until it is closed', () => {
    vi.useFakeTimers();
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('alert').textContent).toContain('demo_mode');
    act(() => { vi.advanceTimersByTime(NOTICE_AUTO_HIDE_MS * 3); });
    expect(screen.getByRole('alert').textContent).toContain('demo_mode');
    fireEvent.click(screen.getByRole('button', { name: 'close' }));
    act(() => { vi.advanceTimersByTime(1000); });
    expect(screen.queryByText('demo_mode')).toBeNull();
  });

  it('refuses to be used outside its provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<Page onOther={() => undefined} />)).toThrow(/NoticeProvider/);
  });
});
