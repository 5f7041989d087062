import type { MyDocuments } from '@rideway/contract';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../test/fake-api';
import { queryWrapper } from '../test/render';
import { DocumentProblemsAlert } from './DocumentProblemsAlert';

// The test's i18n has no texts: each shows as its key.
function renderAlert(answer: MyDocuments) {
  fakeApi({ 'GET /api/driver/documents': { status: 200, body: answer } });
  const { wrapper: Queries } = queryWrapper();
  return render(
    <MemoryRouter>
      <Queries>
        <DocumentProblemsAlert />
      </Queries>
    </MemoryRouter>,
  );
}

describe('DocumentProblemsAlert (issue 20)', () => {
  it('lists what keeps the driver offline, with the way to the documents page', async () => {
    renderAlert({ documents: [], required: true, problems: [{ kind: 'insurance', problem: 'expired' }, { kind: 'id', problem: 'missing' }] });
    expect(await screen.findByText('documents_problems_title')).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['document_problem_expired', 'document_problem_missing']);
    expect(screen.getByRole('link', { name: 'documents_open' }).getAttribute('href')).toBe('/documents');
  });

  it("lists a vehicle's papers with the vehicle's problem beside them", async () => {
    renderAlert({ documents: [], required: true, problems: [{ kind: 'registration', problem: 'missing', vehicleId: 'v2', vehicle: 'Kia Ceed (VD 2)' }, { kind: 'insurance', problem: 'missing', vehicleId: 'v2', vehicle: 'Kia Ceed (VD 2)' }, { kind: 'vehicle', problem: 'pending' }] });
    expect(await screen.findByText('documents_problems_title')).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['document_problem_missing', 'document_problem_missing', 'vehicle_problem_pending']);
  });

  it('shows nothing when documents are in order or not required', async () => {
    const { container, unmount } = renderAlert({ documents: [], required: true, problems: [] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(container.textContent).toBe('');
    unmount();
    const again = renderAlert({ documents: [], required: false, problems: [{ kind: 'id', problem: 'missing' }] });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(again.container.textContent).toBe('');
  });
});
