import { QUARTETT_MESSAGES } from '@schlosstreffen/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  deferred,
  errorOf,
  findToast,
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
  type Handlers,
} from '../../../test/screen-helpers';
import type { QuartettSet } from '@schlosstreffen/shared/api';

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const REVIEWER = { ...SIGNED_IN_USER, role: 'reviewer' } as const;
const SETS = '/api/admin/quartett-sets';

function quartettSet(overrides: Partial<QuartettSet> = {}): QuartettSet {
  const version = overrides.version ?? 1;
  return {
    id: `set-${version}`,
    title: 'Schlosstreffen 2026',
    version,
    status: 'ready',
    statusLabel: 'Fertig',
    progress: 100,
    cardCount: 12,
    exportFileUrl: `/objects/exports/quartett/v${version}.pdf`,
    downloadName: `Schlosstreffen-Quartett-v${version}.pdf`,
    downloadUrl: `/objects/exports/quartett/v${version}.pdf?download=Schlosstreffen-Quartett-v${version}.pdf`,
    error: null,
    createdAt: '2026-05-01T08:30:00.000Z',
    finishedAt: '2026-05-01T08:31:00.000Z',
    releasedAt: null,
    containsDeletedAccount: false,
    ...overrides,
  };
}

function asAdmin(handlers: Handlers) {
  return mockApi({ 'GET /api/auth/user': () => ({ body: ADMIN }), ...handlers });
}

const versionCard = (version: number) =>
  screen.getByRole('article', { name: new RegExp(`^Version ${version}: `) });

describe('/admin/quartett', () => {
  it('shows "Zugriff verweigert" to reviewers and never reads the exports', async () => {
    const api = mockApi({ 'GET /api/auth/user': () => ({ body: REVIEWER }) });
    await renderAt('/admin/quartett');

    expect(await screen.findByRole('heading', { level: 1, name: 'Zugriff verweigert' })).toBeTruthy();
    expect(
      await findToast(
        'Zugriff verweigert',
        'Sie haben keine Berechtigung, auf das Admin-Dashboard zuzugreifen.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Auto-Quartett' })).toBeNull();
    expect(api.calls.some((call) => call.path.startsWith('/api/admin/quartett'))).toBe(false);
  });

  it('shows the print format, the empty state and the queue link', async () => {
    asAdmin({ [`GET ${SETS}`]: () => ({ body: [] }) });
    await renderAt('/admin/quartett');

    expect(await screen.findByRole('heading', { level: 1, name: 'Auto-Quartett' })).toBeTruthy();
    const format = screen.getByRole('list', { name: 'Druckformat' });
    expect(format.textContent).toContain('Karten 59 × 91 mm');
    expect(format.textContent).toContain('3 mm Beschnitt');
    expect(format.textContent).toContain('A4');
    expect(format.textContent).toContain('Duplexdruck');
    expect(await screen.findByRole('heading', { name: 'Noch keine Exporte' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /Warteschlangen öffnen/ }).getAttribute('href')).toBe(
      '/admin/queues',
    );
    expect(document.title).toBe('Auto-Quartett – Adminbereich – Schlosstreffen');
  });

  it('validates the title, posts the trimmed title and lists the new version', async () => {
    let sets: QuartettSet[] = [];
    const created = quartettSet({
      id: 'set-new',
      version: 3,
      title: 'Druck 2026',
      status: 'queued',
      statusLabel: 'In Warteschlange',
      progress: 0,
      cardCount: 0,
      downloadUrl: null,
      exportFileUrl: null,
      finishedAt: null,
    });
    const post = deferred({ status: 201, body: created });
    const api = asAdmin({
      [`GET ${SETS}`]: () => ({ body: sets }),
      [`POST ${SETS}`]: () => {
        sets = [{ ...created, status: 'ready', statusLabel: 'Fertig', progress: 100, cardCount: 4 }];
        return post.promise;
      },
    });
    const user = userEvent.setup();
    await renderAt('/admin/quartett');

    const title = await screen.findByLabelText(/^Titel/);
    await user.click(screen.getByRole('button', { name: 'Export starten' }));
    expect(errorOf(title)).toBe(QUARTETT_MESSAGES.titleRequired);
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(api.writes()).toHaveLength(0);

    await user.type(title, '  Druck 2026 ');
    expect(errorOf(title)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Export starten' }));

    const pending = await screen.findByRole('button', { name: 'Wird gestartet...' });
    expect(pending).toHaveProperty('disabled', true);
    expect(api.writes()).toEqual([{ method: 'POST', path: SETS, body: { title: 'Druck 2026' } }]);

    post.release();
    expect(await findToast('Export gestartet', 'Version 3 „Druck 2026“ wird erstellt.')).toBeTruthy();
    await waitFor(() => expect(within(versionCard(3)).getByText('Fertig')).toBeTruthy());
    expect((screen.getByLabelText(/^Titel/) as HTMLInputElement).value).toBe('');
  });

  it("shows the server's message when there are no confirmed vehicles", async () => {
    asAdmin({
      [`GET ${SETS}`]: () => ({ body: [] }),
      [`POST ${SETS}`]: () => ({ status: 400, body: { message: QUARTETT_MESSAGES.noConfirmedVehicles } }),
    });
    const user = userEvent.setup();
    await renderAt('/admin/quartett');

    await user.type(await screen.findByLabelText(/^Titel/), 'Testdruck');
    await user.click(screen.getByRole('button', { name: 'Export starten' }));

    expect(
      await findToast('Export konnte nicht gestartet werden', QUARTETT_MESSAGES.noConfirmedVehicles),
    ).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Neuer Export' });
    expect(within(form).getByRole('alert').textContent).toBe(QUARTETT_MESSAGES.noConfirmedVehicles);
    expect(screen.getByRole('button', { name: 'Export starten' })).toHaveProperty('disabled', false);
  });

  it('lists the versions with labels, card counts, de-DE dates and downloads only for ready sets', async () => {
    asAdmin({
      [`GET ${SETS}`]: () => ({
        body: [
          quartettSet({
            version: 4,
            status: 'failed',
            statusLabel: 'Fehlgeschlagen',
            progress: 30,
            cardCount: 0,
            downloadUrl: null,
            exportFileUrl: null,
            finishedAt: null,
            error: 'Das Foto von „Golf GTI“ konnte nicht gelesen werden.',
          }),
          quartettSet({
            version: 3,
            status: 'queued',
            statusLabel: 'In Warteschlange',
            progress: 0,
            cardCount: 0,
            downloadUrl: null,
            exportFileUrl: null,
            finishedAt: null,
          }),
          quartettSet({ version: 2, title: 'Vorabdruck' }),
          quartettSet({ version: 1, releasedAt: '2026-05-02T16:05:00.000Z' }),
        ],
      }),
    });
    await renderAt('/admin/quartett');

    const list = await screen.findByRole('list', { name: 'Versionen' });
    const items = within(list).getAllByRole('article');
    expect(items.map((item) => item.getAttribute('aria-labelledby'))).toEqual([
      'quartett-set-set-4',
      'quartett-set-set-3',
      'quartett-set-set-2',
      'quartett-set-set-1',
    ]);

    const failed = versionCard(4);
    expect(within(failed).getByText('Fehlgeschlagen')).toBeTruthy();
    expect(within(failed).getByText('Das Foto von „Golf GTI“ konnte nicht gelesen werden.')).toBeTruthy();
    expect(within(failed).queryByRole('link', { name: /PDF herunterladen/ })).toBeNull();
    expect(within(failed).queryByRole('button', { name: /Freigeben/ })).toBeNull();

    const queued = versionCard(3);
    expect(within(queued).getByText('In Warteschlange')).toBeTruthy();
    expect(within(queued).queryByRole('link', { name: /PDF herunterladen/ })).toBeNull();

    const ready = versionCard(2);
    expect(within(ready).getByRole('heading', { name: 'Version 2: Vorabdruck' })).toBeTruthy();
    expect(within(ready).getByText('Fertig')).toBeTruthy();
    expect(within(ready).getByText('12')).toBeTruthy();
    expect(within(ready).getByText('01.05.2026, 10:30')).toBeTruthy();
    expect(within(ready).getByText('01.05.2026, 10:31')).toBeTruthy();
    const download = within(ready).getByRole('link', { name: 'PDF herunterladen (Version 2)' });
    expect(download.getAttribute('href')).toBe(
      '/objects/exports/quartett/v2.pdf?download=Schlosstreffen-Quartett-v2.pdf',
    );
    expect(download.getAttribute('download')).toBe('Schlosstreffen-Quartett-v2.pdf');
    expect(within(ready).getByRole('button', { name: 'Freigeben (Version 2)' })).toBeTruthy();
    // Only the (empty) release date's term, no badge.
    expect(within(ready).getAllByText('Freigegeben')).toHaveLength(1);

    const released = versionCard(1);
    expect(within(released).getAllByText('Freigegeben')).toHaveLength(2);
    expect(within(released).getByText('02.05.2026, 18:05')).toBeTruthy();
    expect(within(released).getByRole('link', { name: 'PDF herunterladen (Version 1)' })).toBeTruthy();
    expect(within(released).queryByRole('button', { name: /Freigeben/ })).toBeNull();
  });

  it('shows live progress while a set renders and stops polling once none is running', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const rendering = quartettSet({
      version: 5,
      status: 'rendering',
      statusLabel: 'Wird erstellt',
      progress: 40,
      cardCount: 0,
      downloadUrl: null,
      exportFileUrl: null,
      finishedAt: null,
    });
    const answers = [
      [rendering],
      [{ ...rendering, progress: 80 }],
      [{ ...quartettSet({ version: 5 }), cardCount: 9 }],
    ];
    let reads = 0;
    asAdmin({ [`GET ${SETS}`]: () => ({ body: answers[Math.min(reads++, answers.length - 1)] }) });
    await renderAt('/admin/quartett');

    await screen.findByRole('list', { name: 'Versionen' });
    const progress = within(versionCard(5)).getByRole('progressbar');
    expect(progress.getAttribute('aria-valuenow')).toBe('40');
    expect(within(versionCard(5)).getByText('Fortschritt Version 5')).toBeTruthy();
    expect(within(versionCard(5)).getByText('40 %')).toBeTruthy();
    expect(within(versionCard(5)).getByText('Wird erstellt')).toBeTruthy();

    await vi.advanceTimersByTimeAsync(1000);
    await waitFor(() =>
      expect(within(versionCard(5)).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('80'),
    );

    await vi.advanceTimersByTimeAsync(1000);
    await waitFor(() => expect(within(versionCard(5)).getByText('Fertig')).toBeTruthy());
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(await findToast('Export fertig', 'Version 5 mit 9 Karten')).toBeTruthy();
    expect(within(versionCard(5)).getByRole('link', { name: /PDF herunterladen/ })).toBeTruthy();

    const readsWhenDone = reads;
    expect(readsWhenDone).toBe(3);
    await vi.advanceTimersByTimeAsync(5000);
    expect(reads).toBe(readsWhenDone);
  });

  it('does not poll when no set is running', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let reads = 0;
    asAdmin({
      [`GET ${SETS}`]: () => {
        reads += 1;
        return { body: [quartettSet()] };
      },
    });
    await renderAt('/admin/quartett');
    await screen.findByRole('list', { name: 'Versionen' });

    await vi.advanceTimersByTimeAsync(5000);
    expect(reads).toBe(1);
  });

  it('releases a ready set after the confirmation that its vehicles will be locked', async () => {
    const ready = quartettSet({ version: 2, title: 'Druck 2026', cardCount: 12 });
    const answer = deferred({ body: { ...ready, releasedAt: '2026-05-03T09:00:00.000Z' } });
    const api = asAdmin({
      [`GET ${SETS}`]: () => ({ body: [ready] }),
      [`POST ${SETS}/set-2/release`]: () => answer.promise,
    });
    const user = userEvent.setup();
    await renderAt('/admin/quartett');

    await user.click(await screen.findByRole('button', { name: 'Freigeben (Version 2)' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Quartett-Satz freigeben?' });
    const text = dialog.textContent ?? '';
    expect(text).toContain('Version 2 „Druck 2026“ wird für den Druck freigegeben.');
    expect(text).toContain('Die Daten und Bilder der 12 enthaltenen Fahrzeuge werden damit gesperrt');
    expect(text).toContain('Besitzer und Team können sie nicht mehr ändern.');
    expect(text).toContain('Statusänderungen bleiben möglich.');
    expect(api.writes()).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Freigeben' }));
    expect(await within(dialog).findByRole('button', { name: 'Wird freigegeben...' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(api.writes()).toEqual([{ method: 'POST', path: `${SETS}/set-2/release`, body: undefined }]);

    answer.release();
    expect(await findToast('Quartett-Satz freigegeben', 'Version 2 ist freigegeben.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    const card = versionCard(2);
    expect(within(card).getAllByText('Freigegeben')).toHaveLength(2);
    expect(within(card).getByText('03.05.2026, 11:00')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: /Freigeben/ })).toBeNull();
  });

  it("shows the server's message when a release is refused", async () => {
    asAdmin({
      [`GET ${SETS}`]: () => ({ body: [quartettSet({ version: 2 })] }),
      [`POST ${SETS}/set-2/release`]: () => ({
        status: 409,
        body: { message: QUARTETT_MESSAGES.alreadyReleased },
      }),
    });
    const user = userEvent.setup();
    await renderAt('/admin/quartett');

    await user.click(await screen.findByRole('button', { name: 'Freigeben (Version 2)' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Freigeben' }));
    expect(await findToast('Freigabe fehlgeschlagen', QUARTETT_MESSAGES.alreadyReleased)).toBeTruthy();
  });

  it("marks sets with a deleted account with 'Enthält gelöschtes Konto'", async () => {
    asAdmin({
      [`GET ${SETS}`]: () => ({
        body: [quartettSet({ version: 2, containsDeletedAccount: true }), quartettSet({ version: 1 })],
      }),
    });
    await renderAt('/admin/quartett');
    await screen.findByRole('list', { name: 'Versionen' });

    expect(within(versionCard(2)).getByText('Enthält gelöschtes Konto')).toBeTruthy();
    expect(versionCard(2).textContent).toContain('Konto inzwischen gelöscht');
    expect(within(versionCard(1)).queryByText('Enthält gelöschtes Konto')).toBeNull();
  });
});
