import type { VisitorUpdate } from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { findToast, mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../../test/screen-helpers';

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin', firstName: 'Anna' } as const;
const ID = '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5';

function update(overrides: Partial<VisitorUpdate> = {}): VisitorUpdate {
  return {
    id: ID,
    subject: 'Der Zeitplan steht',
    body: 'Die Tore öffnen um 10 Uhr.',
    status: 'draft',
    statusLabel: 'Entwurf',
    revision: 1,
    previewReady: true,
    createdAt: '2026-05-01T08:30:00.000Z',
    startedAt: null,
    finishedAt: null,
    total: 0,
    counts: { pending: 0, sent: 0, failed: 0, unsubscribed: 0 },
    progress: 0,
    ...overrides,
  };
}

describe('/admin/besucher-updates', () => {
  it('writes a draft, shows the preview, sends a test to oneself and, after asking, to all', async () => {
    let current = update();
    const api = mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'GET /api/admin/visitor-updates': () => ({ body: { updates: [], recipients: 42 } }),
      'POST /api/admin/visitor-updates': () => ({ status: 201, body: current }),
      [`GET /api/admin/visitor-updates/${ID}`]: () => ({ body: current }),
      [`POST /api/admin/visitor-updates/${ID}/test`]: () => ({
        status: 202,
        body: { message: 'Die Testmail ist unterwegs.' },
      }),
      [`POST /api/admin/visitor-updates/${ID}/send`]: () => {
        current = update({
          status: 'sending',
          statusLabel: 'Wird gesendet',
          total: 42,
          counts: { pending: 40, sent: 2, failed: 0, unsubscribed: 0 },
          startedAt: '2026-05-02T08:00:00.000Z',
        });
        return { status: 202, body: current };
      },
    });
    const user = userEvent.setup();
    await renderAt('/admin/besucher-updates');

    expect(await screen.findByRole('heading', { level: 1, name: 'Besucher-Updates' })).toBeTruthy();
    expect(screen.getByText(/derzeit 42 Empfänger/)).toBeTruthy();
    expect(screen.getByText('Noch keine Updates geschrieben.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Entwurf speichern' }));
    expect(await screen.findByText('Betreff ist erforderlich')).toBeTruthy();
    expect(api.writes()).toEqual([]);

    await user.type(screen.getByLabelText('Betreff *'), 'Der Zeitplan steht');
    await user.type(screen.getByLabelText('Nachricht *'), 'Die Tore öffnen um 10 Uhr.');
    await user.click(screen.getByRole('button', { name: 'Entwurf speichern' }));
    expect(await findToast('Entwurf gespeichert')).toBeTruthy();
    expect(api.writes()[0]).toEqual({
      method: 'POST',
      path: '/api/admin/visitor-updates',
      body: { subject: 'Der Zeitplan steht', body: 'Die Tore öffnen um 10 Uhr.' },
    });

    const preview = await screen.findByTitle('Vorschau der E-Mail');
    expect(preview.getAttribute('sandbox')).toBe('');
    expect(preview.getAttribute('src')).toBe(`/api/admin/visitor-updates/${ID}/preview?revision=1`);

    await user.click(screen.getByRole('button', { name: 'Test an mich senden' }));
    expect(await findToast('Testmail gesendet', 'Die Testmail ist unterwegs.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'An alle senden' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Update an alle senden?' });
    expect(dialog.textContent).toContain('geht an 42 Besucher');
    await user.click(within(dialog).getByRole('button', { name: 'Jetzt senden' }));
    expect(await findToast('Versand gestartet', 'Das Update geht an 42 Besucher.')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('2'));
    expect(screen.getByText('Versand läuft')).toBeTruthy();
  });
});
