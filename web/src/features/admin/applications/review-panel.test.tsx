import type { CurrentUser, VehicleReview } from '@schlosstreffen/shared/api';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppToaster } from '../../../components/ui/toaster';
import { currentUserQueryOptions } from '../../../lib/current-user';
import { createQueryClient } from '../../../lib/query-client';
import { SIGNED_IN_USER } from '../../../test/screen-helpers';
import { ReviewPanel, scoreSummary } from './review-panel';

const ID = 'a1b2c3d4-0000-4000-8000-000000000001';
const BUILD = '11111111-0000-4000-8000-000000000001';
const ORIGINALITY = '11111111-0000-4000-8000-000000000002';

const ME: CurrentUser = {
  ...SIGNED_IN_USER,
  id: 'r1',
  role: 'reviewer',
  firstName: 'Anna',
  lastName: 'Prüferin',
};

function view(overrides: Partial<VehicleReview> = {}): VehicleReview {
  return {
    vehicleId: ID,
    status: 'submitted',
    categories: [
      { id: BUILD, name: 'Umbauqualität', weight: 2 },
      { id: ORIGINALITY, name: 'Originalität', weight: 1 },
    ],
    reviews: [
      {
        reviewerId: 'r1',
        reviewerName: 'Anna Prüferin',
        mine: true,
        assignedAt: '2026-03-01T10:00:00.000Z',
        submittedAt: null,
        scores: null,
        total: null,
        comment: null,
      },
      {
        reviewerId: 'r2',
        reviewerName: 'Ben Prüfer',
        mine: false,
        assignedAt: '2026-03-01T10:00:00.000Z',
        submittedAt: '2026-03-02T09:00:00.000Z',
        scores: null,
        total: null,
        comment: null,
      },
    ],
    score: { mean: null, min: null, max: null, submitted: 1, assigned: 2 },
    hidden: true,
    mine: { submitted: false },
    candidates: [],
    ...overrides,
  };
}

let current: VehicleReview;
let posted: unknown[];

const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = String(input);
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  if (url === `/api/admin/vehicles/${ID}/review` && (init?.method ?? 'GET') === 'GET') return json(current);
  if (url === `/api/admin/vehicles/${ID}/review` && init?.method === 'POST') {
    posted.push(JSON.parse(String(init.body)));
    current = view({
      hidden: false,
      mine: { submitted: true },
      score: { mean: 7.5, min: 7, max: 8, submitted: 2, assigned: 2 },
      reviews: current.reviews.map((r) =>
        r.mine
          ? {
              ...r,
              submittedAt: '2026-03-03T09:00:00.000Z',
              scores: { [BUILD]: 8, [ORIGINALITY]: 5 },
              total: 7,
            }
          : { ...r, scores: { [BUILD]: 8, [ORIGINALITY]: 8 }, total: 8 },
      ),
    });
    return json(current);
  }
  return json({ message: 'Ein Fehler ist aufgetreten.' }, 404);
});

beforeEach(() => {
  current = view();
  posted = [];
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPanel() {
  const client = createQueryClient();
  client.setQueryData(currentUserQueryOptions.queryKey, ME);
  render(
    <QueryClientProvider client={client}>
      <ReviewPanel vehicleId={ID} />
      <AppToaster />
    </QueryClientProvider>,
  );
}

describe('ReviewPanel', () => {
  it("hides the others' scores until the reviewer submits; then shows them with the mean and its spread", async () => {
    const user = userEvent.setup();
    renderPanel();
    expect(await screen.findByText('Sichtbar, sobald Sie Ihre Bewertung abgegeben haben')).toBeTruthy();
    const others = screen.getByRole('list', { name: 'Prüfungen' });
    expect(within(others).getByText(/Ben Prüfer/)).toBeTruthy();
    expect(within(others).queryByText(/Umbauqualität 8/)).toBeNull();

    // A missing and an out-of-range score are refused in German, without a call.
    await user.type(screen.getByLabelText(/Umbauqualität/), '11');
    await user.click(screen.getByRole('button', { name: 'Bewertung abgeben' }));
    expect(await screen.findByText('Jede Bewertung ist eine ganze Zahl von 0 bis 10.')).toBeTruthy();
    expect(await screen.findByText('Bitte bewerten Sie „Originalität“.')).toBeTruthy();
    expect(posted).toEqual([]);

    await user.clear(screen.getByLabelText(/Umbauqualität/));
    await user.type(screen.getByLabelText(/Umbauqualität/), '8');
    await user.type(screen.getByLabelText(/Originalität/), '5');
    await user.click(screen.getByRole('button', { name: 'Bewertung abgeben' }));
    expect(await screen.findByText(/7,5 \(Spanne 7–8\) · 2 von 2 Bewertungen abgegeben/)).toBeTruthy();
    expect(posted).toEqual([{ scores: { [BUILD]: 8, [ORIGINALITY]: 5 }, comment: null }]);
    expect(screen.getByText('Umbauqualität 8 · Originalität 8')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Bewertung abgeben' })).toBeNull();
  });

  it('summarizes a score without reviews, and one without spread', () => {
    expect(scoreSummary({ mean: null, min: null, max: null, submitted: 0, assigned: 2 })).toBe(
      'Noch keine Bewertung abgegeben (0 von 2)',
    );
    expect(scoreSummary({ mean: 8, min: 8, max: 8, submitted: 1, assigned: 2 })).toBe(
      '8 · 1 von 2 Bewertungen abgegeben',
    );
  });
});
