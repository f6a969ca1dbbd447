import type { PublicTextsView } from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  failWith,
  findToast,
  mockApi,
  renderAt,
  setupScreenTests,
  SIGNED_IN_USER,
} from '../../../test/screen-helpers';
import { DEFAULT_INTRODUCTION } from '../../landing/public-texts';

setupScreenTests();

const ADMIN = { ...SIGNED_IN_USER, role: 'admin' } as const;
const REVIEWER = { ...SIGNED_IN_USER, role: 'reviewer' } as const;
const PATH = '/api/admin/texts';

const view = (texts: Partial<PublicTextsView['texts']> = {}, changed = false): PublicTextsView => ({
  edition: { year: 2027, applicationDeadline: '2027-03-31' },
  texts: { introduction: null, eventDetails: null, faq: null, ...texts },
  updatedAt: changed ? '2026-12-01T09:30:00.000Z' : null,
  updatedBy: changed ? 'Anna Admin' : null,
});

/** An API that keeps the texts as the server would: PUT sets the parts given. */
function asAdmin(start: PublicTextsView) {
  let current = start;
  return mockApi({
    'GET /api/auth/user': () => ({ body: ADMIN }),
    'GET /api/admin/editions': () => ({ body: { editions: [] } }),
    [`GET ${PATH}`]: () => ({ body: current }),
    [`PUT ${PATH}`]: (body) => {
      current = view({ ...current.texts, ...(body as object) }, true);
      return { body: current };
    },
  });
}

const section = (name: string) => screen.getByRole('region', { name });
const preview = (name: string) => screen.getByRole('region', { name: `Vorschau: ${name}` });
const entry = (n: number) => screen.getByRole('group', { name: `Frage ${n}` });
const question = (n: number) => within(entry(n)).getByRole('textbox', { name: 'Frage' });
const answer = (n: number) => within(entry(n)).getByRole('textbox', { name: 'Antwort' });

describe('/admin/texte', () => {
  it('shows "Zugriff verweigert" to reviewers, without the nav link and without reading the texts', async () => {
    const api = mockApi({ 'GET /api/auth/user': () => ({ body: REVIEWER }) });
    await renderAt('/admin/texte');

    expect(await screen.findByRole('heading', { level: 1, name: 'Zugriff verweigert' })).toBeTruthy();
    expect(api.calls.some((call) => call.path === PATH)).toBe(false);
    const nav = screen.getByRole('navigation', { name: 'Adminbereich' });
    expect(within(nav).queryByRole('link', { name: 'Texte' })).toBeNull();
  });

  it('starts from the default texts, with the edition’s deadline in the default FAQ as a placeholder', async () => {
    asAdmin(view());
    await renderAt('/admin/texte');

    expect(await screen.findByRole('heading', { level: 1, name: 'Texte' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Adminbereich' });
    expect(within(nav).getByRole('link', { name: 'Texte' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByText(/Ausgabe 2027 · bisher nicht geändert/)).toBeTruthy();
    expect(
      (
        screen.getByRole('textbox', {
          name: 'Einführung unter dem Namen des Treffens',
        }) as HTMLTextAreaElement
      ).value,
    ).toBe(DEFAULT_INTRODUCTION);
    expect(within(section('Einführung')).getByText('Standardtext')).toBeTruthy();
    expect(screen.getAllByRole('group', { name: /^Frage \d+$/ })).toHaveLength(8);
    // The deadline as a placeholder (saved, it stays right for later editions); the preview fills it in.
    expect((answer(6) as HTMLTextAreaElement).value).toContain('spätestens bis {Bewerbungsschluss}.');
    expect(within(preview('FAQ')).getByText(/spätestens bis März 2027\./)).toBeTruthy();
    expect(within(section('FAQ')).getByRole('button', { name: /Standard wiederherstellen/ })).toHaveProperty(
      'disabled',
      true,
    );
    expect(screen.getByRole('button', { name: 'Speichern' })).toHaveProperty('disabled', true);
    expect(screen.getByText('Alle Änderungen sind gespeichert.')).toBeTruthy();
  });

  it('previews an edited answer as the landing page shows it, says what is unsaved, and saves only that part', async () => {
    const api = asAdmin(view());
    await renderAt('/admin/texte');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Texte' });

    await user.clear(question(1));
    await user.type(question(1), 'Gibt es einen Dresscode?');
    await user.clear(answer(1));
    await user.type(answer(1), 'Nein, aber **feste Schuhe**.');
    const faqPreview = preview('FAQ');
    const shown = within(faqPreview).getByRole('heading', { level: 3, name: 'Gibt es einen Dresscode?' });
    const item = shown.closest('details')!;
    expect(item.open).toBe(false);
    await user.click(shown);
    expect(item.open).toBe(true);
    expect(within(item).getByText('feste Schuhe').tagName).toBe('STRONG');
    // Eight entries, in order, as the landing page would list them.
    expect(within(faqPreview).getAllByRole('heading', { level: 3 })).toHaveLength(8);
    expect(screen.getByText('Ungespeicherte Änderungen: FAQ.')).toBeTruthy();

    // Moving the entry down, adding one and removing it again.
    await user.click(within(entry(1)).getByRole('button', { name: 'Nach unten: Frage 1' }));
    expect((question(2) as HTMLInputElement).value).toBe('Gibt es einen Dresscode?');
    await user.click(screen.getByRole('button', { name: 'Frage hinzufügen' }));
    expect(screen.getAllByRole('group', { name: /^Frage \d+$/ })).toHaveLength(9);
    await user.click(within(entry(9)).getByRole('button', { name: 'Entfernen: Frage 9' }));
    await user.click(within(entry(2)).getByRole('button', { name: 'Nach oben: Frage 2' }));

    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await findToast('Gespeichert');
    const put = api.calls.find((call) => call.method === 'PUT');
    const body = put?.body as { faq: Array<{ question: string; answer: string }> };
    expect(Object.keys(body)).toEqual(['faq']);
    expect(body.faq).toHaveLength(8);
    expect(body.faq[0]).toEqual({
      question: 'Gibt es einen Dresscode?',
      answer: 'Nein, aber **feste Schuhe**.',
    });
    expect(body.faq[1]?.question).toBe('Was passiert, wenn mein Fahrzeug angenommen wird?');
    await waitFor(() => expect(screen.getByText('Alle Änderungen sind gespeichert.')).toBeTruthy());
    expect(within(section('FAQ')).getByText('Angepasst')).toBeTruthy();
    expect(screen.getByText(/zuletzt geändert am 01\.12\.2026, 10:30 Uhr von Anna Admin/)).toBeTruthy();
  });

  it('refuses what does not fit with the German message and sends nothing', async () => {
    const api = asAdmin(view());
    await renderAt('/admin/texte');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Texte' });

    await user.clear(question(2));
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Jede Frage braucht einen Text mit höchstens 200 Zeichen.',
    );

    await user.type(question(2), 'Wieder da?');
    const intro = screen.getByRole('textbox', { name: 'Einführung unter dem Namen des Treffens' });
    await user.clear(intro);
    // Pasted: user-event reads '[' as the start of a key name.
    await user.paste('Hier [klicken](javascript:alert%281%29).');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Links dürfen nur auf http(s)-Adressen oder Seiten der Website („/…“) zeigen.',
      ),
    );
    // The preview shows the link as text.
    expect(within(preview('Einführung')).queryByRole('link')).toBeNull();
    expect(api.calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it("'Standard wiederherstellen' puts one part back to the default and keeps the others' unsaved changes", async () => {
    const api = asAdmin(
      view(
        { faq: [{ question: 'Eigene Frage?', answer: 'Eigene Antwort.' }], eventDetails: 'Eigene Details.' },
        true,
      ),
    );
    await renderAt('/admin/texte');
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Texte' });
    expect(screen.getAllByRole('group', { name: /^Frage \d+$/ })).toHaveLength(1);
    expect(within(preview('Veranstaltungsdetails')).getByText('Eigene Details.')).toBeTruthy();

    const intro = screen.getByRole('textbox', { name: 'Einführung unter dem Namen des Treffens' });
    await user.type(intro, ' Noch mehr.');
    await user.click(within(section('FAQ')).getByRole('button', { name: 'Standard wiederherstellen: FAQ' }));
    await findToast('Standard wiederhergestellt');
    expect(api.calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { faq: null },
    ]);
    expect(screen.getAllByRole('group', { name: /^Frage \d+$/ })).toHaveLength(8);
    expect(within(section('FAQ')).getByText('Standardtext')).toBeTruthy();
    expect((intro as HTMLTextAreaElement).value).toBe(`${DEFAULT_INTRODUCTION} Noch mehr.`);
    expect(screen.getByText('Ungespeicherte Änderungen: Einführung.')).toBeTruthy();
  });

  it('says when the texts cannot be loaded', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: ADMIN }),
      'GET /api/admin/editions': () => ({ body: { editions: [] } }),
      [`GET ${PATH}`]: failWith(500, 'Serverfehler'),
    });
    await renderAt('/admin/texte');
    expect(await screen.findByText('Die Texte konnten nicht geladen werden')).toBeTruthy();
  });
});
