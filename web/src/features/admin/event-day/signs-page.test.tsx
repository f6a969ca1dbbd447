import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SignExport } from '@schlosstreffen/shared/api';
import {
  findToast,
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
  type Handlers,
} from '../../../test/screen-helpers';

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const REVIEWER = { ...SIGNED_IN_USER, role: 'reviewer' } as const;
const SIGNS = '/api/admin/signs';

function signSet(overrides: Partial<SignExport> = {}): SignExport {
  return {
    id: 'a4000000-0000-4000-8000-000000000001',
    format: 'a4',
    formatLabel: 'A4 quer, ein Schild je Seite',
    vehicleId: null,
    status: 'ready',
    statusLabel: 'Fertig',
    progress: 100,
    signCount: 42,
    downloadName: 'Windschilder-2026-A4.pdf',
    downloadUrl:
      '/objects/exports/signs/a4000000-0000-4000-8000-000000000001.pdf?download=Windschilder-2026-A4.pdf',
    error: null,
    createdAt: '2026-06-01T08:30:00.000Z',
    finishedAt: '2026-06-01T08:30:20.000Z',
    ...overrides,
  };
}

const asAdmin = (handlers: Handlers) =>
  mockApi({ 'GET /api/auth/user': () => ({ body: ADMIN }), ...handlers });

const formatCard = (label: string) => screen.getByRole('article', { name: label });

describe('/admin/windschilder', () => {
  it('shows "Zugriff verweigert" to reviewers and never reads the signs', async () => {
    const api = mockApi({ 'GET /api/auth/user': () => ({ body: REVIEWER }) });
    await renderAt('/admin/windschilder');
    expect(await screen.findByRole('heading', { level: 1, name: 'Zugriff verweigert' })).toBeTruthy();
    expect(api.calls.some((call) => call.path.startsWith(SIGNS))).toBe(false);
  });

  it('shows both formats: a ready set with its download, one not made yet', async () => {
    asAdmin({ [`GET ${SIGNS}`]: () => ({ body: [signSet()] }) });
    await renderAt('/admin/windschilder');

    expect(await screen.findByRole('heading', { level: 1, name: 'Windschilder' })).toBeTruthy();
    const a4 = await waitFor(() => formatCard('A4 quer, ein Schild je Seite'));
    expect(within(a4).getByText('Fertig')).toBeTruthy();
    expect(within(a4).getByText('42')).toBeTruthy();
    const link = within(a4).getByRole('link', { name: /PDF herunterladen/ });
    expect(link.getAttribute('href')).toBe(signSet().downloadUrl);
    expect(within(a4).getByRole('button', { name: /Neu erstellen/ })).toBeTruthy();

    const a5 = formatCard('A5, zwei je A4');
    expect(within(a5).getByText('Noch nicht erstellt.')).toBeTruthy();
    expect(within(a5).queryByRole('link')).toBeNull();
    expect(within(a5).getByRole('button', { name: /Erstellen/ })).toBeTruthy();
  });

  it('starts a format, shows it rendering and tells when it is ready', async () => {
    let sets: SignExport[] = [];
    const queued = signSet({
      id: 'a5000000-0000-4000-8000-000000000002',
      format: 'a5',
      formatLabel: 'A5, zwei je A4',
      status: 'queued',
      statusLabel: 'In Warteschlange',
      progress: 0,
      signCount: 0,
      downloadUrl: null,
      downloadName: 'Windschilder-2026-A5.pdf',
      finishedAt: null,
    });
    const api = asAdmin({
      [`GET ${SIGNS}`]: () => ({ body: sets }),
      [`POST ${SIGNS}`]: () => {
        sets = [queued];
        return { status: 201, body: queued };
      },
    });
    await renderAt('/admin/windschilder');
    const user = userEvent.setup();
    const a5 = await waitFor(() => formatCard('A5, zwei je A4'));
    await user.click(within(a5).getByRole('button', { name: /Erstellen/ }));

    expect(api.writes()).toEqual([{ method: 'POST', path: SIGNS, body: { format: 'a5' } }]);
    expect(await within(formatCard('A5, zwei je A4')).findByText('Wartet auf den Start')).toBeTruthy();
    expect(
      within(formatCard('A5, zwei je A4')).getByRole('button', { name: 'Wird erstellt...' }),
    ).toHaveProperty('disabled', true);

    sets = [
      {
        ...queued,
        status: 'ready',
        statusLabel: 'Fertig',
        progress: 100,
        signCount: 3,
        downloadUrl: '/x.pdf',
      },
    ];
    expect(
      await findToast('Windschilder fertig', 'A5, zwei je A4: 3 Schilder zum Herunterladen.'),
    ).toBeTruthy();
    expect(
      within(formatCard('A5, zwei je A4')).getByRole('link', { name: /PDF herunterladen/ }),
    ).toBeTruthy();
  });
});
