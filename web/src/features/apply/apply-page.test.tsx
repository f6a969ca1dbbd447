import { SUBMISSION_CONSENT_KINDS, CONSENTS, getCreateDefaults } from '@schlosstreffen/shared';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../components/ui/toaster';
import { createQueryClient } from '../../lib/query-client';
import { createAppRouter } from '../../router';
import type * as UploaderModule from '../media/use-image-uploader';
import type { RecordedCall } from '../../test/screen-helpers';
import {
  deferredReply,
  installDomShims,
  jpeg,
  lena,
  renderRoute,
  stubApi,
} from '../vehicle-form/test-helpers';

vi.mock('../media/use-image-uploader', async (importOriginal) => {
  const original = await importOriginal<typeof UploaderModule>();
  const { useFakeImageUploader } = await import('../vehicle-form/fake-image-uploader');
  return { ...original, useImageUploader: useFakeImageUploader };
});

const VEHICLE_ID = '0b6f3a52-5a8e-4d51-9a63-0f2b9c1d7e21';

function api(overrides: Record<string, Parameters<typeof stubApi>[0][string]> = {}) {
  return stubApi({
    'GET /api/auth/user': { body: lena },
    'GET /api/vehicles': { body: [] },
    'POST /api/vehicles': { status: 201, body: { id: VEHICLE_ID, media: [] } },
    [`POST /api/vehicles/${VEHICLE_ID}/media`]: (call: RecordedCall) => ({
      status: 201,
      body: { id: `media-${String((call.body as { url: string }).url)}` },
    }),
    ...overrides,
  });
}

const heading = () => document.getElementById('apply-step-heading')!;
const button = (name: string | RegExp) => screen.getByRole('button', { name });

async function fillStep1(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Marke *'), 'BMW');
  await user.type(screen.getByLabelText('Modell *'), 'M3 (E30)');
  await user.type(screen.getByLabelText('Farbe'), 'Henna-Rot');
}

async function toStep(user: ReturnType<typeof userEvent.setup>, step: 2 | 3 | 4) {
  await fillStep1(user);
  await user.click(button('Weiter'));
  await screen.findByRole('heading', { name: 'Leistungsdaten' });
  if (step === 2) return;
  await user.click(button('Weiter'));
  await screen.findByRole('heading', { name: 'Fahrzeugbilder' });
  if (step === 3) return;
  await user.click(button('Weiter'));
  await screen.findByRole('heading', { name: 'Einwilligungen' });
}

beforeEach(() => {
  installDomShims();
});

afterEach(() => {
  cleanup();
  toaster.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/apply wizard', () => {
  it('redirects signed-out users to /login', async () => {
    stubApi({ 'GET /api/auth/user': { status: 401, body: { message: 'Bitte melde dich an.' } } });
    const { router } = await renderRoute('/apply');
    expect(router.state.location.pathname).toBe('/login');
  });

  it("shows 'Lädt...' while the sign-in check is under way", async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const router = createAppRouter({
      queryClient: createQueryClient(),
      history: createMemoryHistory({ initialEntries: ['/apply'] }),
    });
    render(<RouterProvider router={router} />);

    expect(await screen.findByText('Lädt...', {}, { timeout: 2000 })).toBeTruthy();
    answer(new Response(JSON.stringify(lena), { headers: { 'content-type': 'application/json' } }));
    expect(await screen.findByRole('heading', { name: 'Basisdaten' }, { timeout: 2000 })).toBeTruthy();
  });

  it('starts at step 1 of 4 with the create defaults, Zurück disabled and a canonical link', async () => {
    api();
    await renderRoute('/apply');

    expect(await screen.findByRole('heading', { level: 1, name: 'Fahrzeug anmelden' })).toBeTruthy();
    expect(heading().textContent).toBe('Basisdaten');
    const progress = screen.getByRole('progressbar');
    expect(progress.getAttribute('aria-valuenow')).toBe('1');
    expect(progress.getAttribute('aria-valuemax')).toBe('4');
    expect(screen.getByText('Schritt 1 von 4: Basisdaten')).toBeTruthy();
    expect(screen.getByText('1/4')).toBeTruthy();
    expect(button('Zurück')).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Baujahr *')).toHaveProperty('value', String(getCreateDefaults().year));
    expect(document.title).toBe('Fahrzeug anmelden – Schlosstreffen');
    expect(document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toMatch(/\/apply$/);
    expect(screen.getByRole('link', { name: 'Schließen' }).getAttribute('href')).toBe('/');
  });

  it('does not leave step 1 while brand, model or year are invalid, and shows why', async () => {
    api();
    const user = userEvent.setup();
    await renderRoute('/apply');
    await screen.findByRole('heading', { name: 'Basisdaten' });

    const year = screen.getByLabelText('Baujahr *');
    await user.clear(year);
    await user.type(year, '1900');
    await user.click(button('Weiter'));

    expect(heading().textContent).toBe('Basisdaten');
    expect(screen.getByText('Marke ist erforderlich')).toBeTruthy();
    expect(screen.getByText('Modell ist erforderlich')).toBeTruthy();
    expect(screen.getByText('Baujahr muss zwischen 1950 und 2026 liegen')).toBeTruthy();
    const brand = screen.getByLabelText('Marke *');
    expect(brand.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(brand.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Marke ist erforderlich',
    );

    await fillStep1(user);
    await user.clear(year);
    await user.type(year, '1988');
    await user.click(button('Weiter'));
    expect(await screen.findByRole('heading', { name: 'Leistungsdaten' })).toBeTruthy();
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('2');
    expect(button('Zurück')).toHaveProperty('disabled', false);
  });

  it('has the performance defaults and does not leave step 2 with invalid values', async () => {
    api();
    const user = userEvent.setup();
    await renderRoute('/apply');
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await toStep(user, 2);

    expect(screen.getByLabelText('Leistung (PS) *')).toHaveProperty('value', '150');
    expect(screen.getByLabelText('Gewicht (kg) *')).toHaveProperty('value', '1200');
    expect(screen.getByLabelText('Höchstgeschwindigkeit (km/h) *')).toHaveProperty('value', '200');
    expect(screen.getByLabelText('0-100 km/h (s) *')).toHaveProperty('value', '60');
    // Fuel options include Electric, shown as 'Elektro'.
    const fuel = document.querySelector<HTMLSelectElement>('select[name="fuelType"]');
    expect([...(fuel?.options ?? [])].map((option) => option.value).filter(Boolean)).toEqual([
      'Benzin',
      'Diesel',
      'Electric',
      'Hybrid',
    ]);
    expect(fuel?.textContent).toContain('Elektro');
    const drive = document.querySelector<HTMLSelectElement>('select[name="driveType"]');
    expect([...(drive?.options ?? [])].map((option) => option.value).filter(Boolean)).toEqual([
      'FWD',
      'RWD',
      'AWD',
    ]);

    const ps = screen.getByLabelText('Leistung (PS) *');
    await user.clear(ps);
    await user.type(ps, '20');
    await user.clear(screen.getByLabelText('Gewicht (kg) *'));
    await user.clear(screen.getByLabelText('0-100 km/h (s) *'));
    await user.click(button('Weiter'));

    expect(heading().textContent).toBe('Leistungsdaten');
    expect(screen.getByText('Leistung muss zwischen 50 und 3000 PS liegen')).toBeTruthy();
    expect(screen.getByText('Gewicht ist erforderlich')).toBeTruthy();
    expect(screen.getByText('Beschleunigung 0-100 km/h ist erforderlich')).toBeTruthy();

    await user.click(button('Zurück'));
    expect(heading().textContent).toBe('Basisdaten');
    expect(screen.getByLabelText('Marke *')).toHaveProperty('value', 'BMW');
  });

  it('advances from the images step without validation and needs all three consents', async () => {
    const { writes } = api();
    const user = userEvent.setup();
    await renderRoute('/apply');
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await toStep(user, 3);

    expect(screen.getByLabelText('Bilder auswählen')).toBeTruthy();
    await user.click(button('Weiter'));
    expect(await screen.findByRole('heading', { name: 'Einwilligungen' })).toBeTruthy();
    expect(screen.getByText('Schritt 4 von 4: Einwilligungen')).toBeTruthy();

    await user.click(button('Bewerbung einreichen'));
    expect(await screen.findByText('Einwilligung zur Mediennutzung ist erforderlich')).toBeTruthy();
    expect(screen.getByText('Einwilligung für Auto-Quartett ist erforderlich')).toBeTruthy();
    expect(screen.getByText('Einwilligung zur Kontaktaufnahme ist erforderlich')).toBeTruthy();

    await user.click(screen.getByRole('checkbox', { name: /sozialen Medien/ }));
    await user.click(screen.getByRole('checkbox', { name: /Auto-Quartett/ }));
    await user.click(button('Bewerbung einreichen'));
    expect(screen.queryByText('Einwilligung zur Mediennutzung ist erforderlich')).toBeNull();
    expect(screen.getByText('Einwilligung zur Kontaktaufnahme ist erforderlich')).toBeTruthy();
    expect(writes()).toEqual([]);
  });

  it('asks for the three consents in their shared wording and links to the privacy notice', async () => {
    api();
    const user = userEvent.setup();
    await renderRoute('/apply');
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await toStep(user, 4);

    const labels = screen.getAllByRole('checkbox').map((box) => box.closest('label')?.textContent);
    expect(labels).toEqual(SUBMISSION_CONSENT_KINDS.map((kind) => `${CONSENTS[kind].text} *`));
    const link = screen.getByRole('link', { name: 'Datenschutzerklärung (öffnet in neuem Tab)' });
    expect(link.getAttribute('href')).toBe('/datenschutz');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.closest('p')?.textContent).toContain('in deinem Profil widerrufen');
  });

  it('submits the vehicle with its three consents, then attaches the images, and goes to the dashboard', async () => {
    const { writes } = api();
    const user = userEvent.setup();
    const { router } = await renderRoute('/apply');
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await fillStep1(user);
    await user.click(button('Weiter'));
    await screen.findByRole('heading', { name: 'Leistungsdaten' });
    const ps = screen.getByLabelText('Leistung (PS) *');
    await user.clear(ps);
    await user.type(ps, '238');
    const sprint = screen.getByLabelText('0-100 km/h (s) *');
    await user.clear(sprint);
    await user.type(sprint, '6.7');
    await user.click(button('Weiter'));
    await screen.findByRole('heading', { name: 'Fahrzeugbilder' });

    await user.upload(screen.getByLabelText('Bilder auswählen'), [jpeg('front.jpg'), jpeg('heck.jpg')]);
    const editor = await screen.findByRole('list', { name: 'Bilder bearbeiten' });
    const [first, second] = within(editor).getAllByRole('radio', { name: /Hauptbild/ });
    expect(first).toHaveProperty('checked', true);
    expect(second).toHaveProperty('checked', false);

    await user.click(button('Weiter'));
    await screen.findByRole('heading', { name: 'Einwilligungen' });
    for (const checkbox of screen.getAllByRole('checkbox')) await user.click(checkbox);
    await user.click(button('Bewerbung einreichen'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('Bewerbung eingereicht!')).toBeTruthy();
    expect(screen.getByText('Ihr Fahrzeug wurde zur Prüfung eingereicht.')).toBeTruthy();

    const [create, ...media] = writes();
    expect(create?.method).toBe('POST');
    expect(create?.path).toBe('/api/vehicles');
    const body = create?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('title');
    expect(body).toMatchObject({
      status: 'submitted',
      brand: 'BMW',
      model: 'M3 (E30)',
      color: 'Henna-Rot',
      year: getCreateDefaults().year,
      ps: 238,
      weightKg: 1200,
      topSpeedKmh: 200,
      zeroToHundredS: 6.7,
    });
    for (const key of ['ps', 'year', 'weightKg', 'topSpeedKmh', 'zeroToHundredS']) {
      expect(typeof body[key]).toBe('number');
    }
    expect(Object.fromEntries(Object.entries(body).filter(([key]) => key.startsWith('consent')))).toEqual({
      consentMedia: true,
      consentQuartett: true,
      consentContact: true,
    });

    expect(media).toEqual([
      {
        method: 'POST',
        path: `/api/vehicles/${VEHICLE_ID}/media`,
        body: {
          type: 'image',
          url: '/objects/uploads/test/front.jpg',
          isHero: true,
          cropX: '50.00',
          cropY: '50.00',
          scale: '100.00',
        },
      },
      {
        method: 'POST',
        path: `/api/vehicles/${VEHICLE_ID}/media`,
        body: {
          type: 'image',
          url: '/objects/uploads/test/heck.jpg',
          isHero: false,
          cropX: '50.00',
          cropY: '50.00',
          scale: '100.00',
        },
      },
    ]);
  });

  it('sends the chosen main image and framing', async () => {
    const { writes } = api();
    const user = userEvent.setup();
    await renderRoute('/apply');
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await toStep(user, 3);
    await user.upload(screen.getByLabelText('Bilder auswählen'), [jpeg('a.jpg'), jpeg('b.jpg')]);
    const editor = await screen.findByRole('list', { name: 'Bilder bearbeiten' });
    await user.click(within(editor).getAllByRole('radio', { name: /Hauptbild/ })[1]!);
    fireEvent.change(within(editor).getAllByRole('slider', { name: /Zoom/ })[1]!, {
      target: { value: '102' },
    });

    await user.click(button('Weiter'));
    await screen.findByRole('heading', { name: 'Einwilligungen' });
    for (const checkbox of screen.getAllByRole('checkbox')) await user.click(checkbox);
    await user.click(button('Bewerbung einreichen'));

    await waitFor(() => expect(writes()).toHaveLength(3));
    expect(writes().map((call) => call.body)).toMatchObject([
      {},
      { url: '/objects/uploads/test/a.jpg', isHero: false, scale: '100.00' },
      { url: '/objects/uploads/test/b.jpg', isHero: true, scale: '102.00' },
    ]);
  });

  it('keeps the user on the wizard with the server message when the application fails', async () => {
    const refusal = deferredReply({ status: 400, body: { message: 'Bitte überprüfe deine Eingaben.' } });
    api({ 'POST /api/vehicles': refusal.reply });
    const user = userEvent.setup();
    const { router } = await renderRoute('/apply');
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await toStep(user, 4);
    for (const checkbox of screen.getAllByRole('checkbox')) await user.click(checkbox);
    await user.click(button('Bewerbung einreichen'));
    expect(await screen.findByRole('button', { name: 'Wird eingereicht...' })).toHaveProperty(
      'disabled',
      true,
    );
    refusal.release();

    expect(await screen.findByText('Einreichung fehlgeschlagen')).toBeTruthy();
    expect(screen.getByText('Bitte überprüfe deine Eingaben.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/apply');
    expect(button('Bewerbung einreichen')).toHaveProperty('disabled', false);
  });

  it('still lands on the dashboard when an image cannot be attached', async () => {
    api({
      [`POST /api/vehicles/${VEHICLE_ID}/media`]: {
        status: 409,
        body: { message: 'Dieses Bild ist bereits einem Fahrzeug zugeordnet.' },
      },
    });
    const user = userEvent.setup();
    const { router } = await renderRoute('/apply');
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await toStep(user, 3);
    await user.upload(screen.getByLabelText('Bilder auswählen'), [jpeg('a.jpg')]);
    await user.click(button('Weiter'));
    await screen.findByRole('heading', { name: 'Einwilligungen' });
    for (const checkbox of screen.getAllByRole('checkbox')) await user.click(checkbox);
    await user.click(button('Bewerbung einreichen'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('Fehler beim Hochladen')).toBeTruthy();
    expect(screen.getByText('Dieses Bild ist bereits einem Fahrzeug zugeordnet.')).toBeTruthy();
  });
});
