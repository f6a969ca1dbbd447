import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../components/ui/toaster';
import type * as UploaderModule from '../media/use-image-uploader';
import type { Media, Vehicle } from '@schlosstreffen/shared/api';
import { deferredReply, installDomShims, lena, renderRoute, stubApi } from '../vehicle-form/test-helpers';

vi.mock('../media/use-image-uploader', async (importOriginal) => {
  const original = await importOriginal<typeof UploaderModule>();
  const { useFakeImageUploader } = await import('../vehicle-form/fake-image-uploader');
  return { ...original, useImageUploader: useFakeImageUploader };
});

const ID = '18fa6e98-19db-47ab-b96c-1a96d2d4fdcf';
const MISSING = '00000000-0000-4000-8000-000000000000';

function media(id: string, isHero: boolean, crop: Partial<Media> = {}): Media {
  return {
    id,
    vehicleId: ID,
    type: 'image',
    url: `/objects/uploads/u/${id}.jpg`,
    thumbnailUrl: null,
    thumbnails: null,
    altText: null,
    isHero,
    priority: 0,
    width: 1600,
    height: 1000,
    fileSize: 50_000,
    cropX: '50.00',
    cropY: '50.00',
    scale: '100.00',
    approvalStatus: 'auto',
    rejectionReason: null,
    createdAt: '2026-02-01T10:00:00.000Z',
    ...crop,
  };
}

const HERO_ID = 'a1111111-1111-4111-8111-111111111111';
const SECOND_ID = 'b2222222-2222-4222-8222-222222222222';

const golf: Vehicle = {
  id: ID,
  userId: lena.id,
  title: 'Volkswagen Golf II GTI 16V',
  name: 'Rote Zora',
  brand: 'Volkswagen',
  model: 'Golf II GTI 16V',
  year: 1989,
  color: 'Tornadorot',
  licensePlate: 'L-LW 89H',
  vin: null,
  tuningCategories: ['Motor', 'Fahrwerk'],
  descriptionShort: 'Seit 2009 in Besitz.',
  descriptionLong: null,
  status: 'submitted',
  ps: 185,
  kw: null,
  torqueNm: 210,
  weightKg: 960,
  powerToWeight: null,
  topSpeedKmh: 220,
  zeroToHundredS: 7.2,
  quarterMileS: null,
  driveType: 'RWD',
  displacementCcm: 1781,
  cylinders: 4,
  fuelType: 'Benzin',
  specialMods: null,
  media: [media(HERO_ID, true, { cropX: '40.00', scale: '120.00' }), media(SECOND_ID, false)],
  invitation: null,
  createdAt: '2026-02-01T10:00:00.000Z',
  updatedAt: '2026-02-01T10:00:00.000Z',
};

function api(overrides: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    'GET /api/auth/user': { body: lena },
    'GET /api/vehicles': { body: [golf] },
    [`GET /api/vehicles/${ID}`]: { body: golf },
    [`GET /api/vehicles/${MISSING}`]: { status: 404, body: { message: 'Fahrzeug nicht gefunden' } },
    [`PATCH /api/vehicles/${ID}`]: { body: golf },
    [`DELETE /api/vehicles/${ID}/media/${SECOND_ID}`]: { status: 204 },
    [`PATCH /api/vehicles/${ID}/media`]: { body: [] },
    [`POST /api/vehicles/${ID}/media`]: {
      status: 201,
      body: media('c3333333-3333-4333-8333-333333333333', false),
    },
    ...overrides,
  });
}

const button = (name: string | RegExp) => screen.getByRole('button', { name });
const stepHeading = () => document.getElementById('edit-step-heading');

async function toImages(user: ReturnType<typeof userEvent.setup>) {
  await user.click(button('Weiter'));
  await screen.findByRole('heading', { name: 'Leistungsdaten' });
  await user.click(button('Weiter'));
  await screen.findByRole('heading', { name: 'Bilder verwalten' });
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

describe('/edit/{id}', () => {
  it("shows 'Fahrzeug nicht gefunden' for a missing vehicle", async () => {
    api();
    await renderRoute(`/edit/${MISSING}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Fahrzeug nicht gefunden' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Zu meinen Fahrzeugen' }).getAttribute('href')).toBe(
      '/dashboard',
    );
  });

  it('loads the vehicle into three steps with a live quartett card', async () => {
    api();
    const user = userEvent.setup();
    await renderRoute(`/edit/${ID}`);

    expect(await screen.findByRole('heading', { level: 1, name: 'Fahrzeug bearbeiten' })).toBeTruthy();
    const progress = screen.getByRole('progressbar');
    expect(progress.getAttribute('aria-valuenow')).toBe('1');
    expect(progress.getAttribute('aria-valuemax')).toBe('3');
    expect(screen.getByText('Schritt 1 von 3: Basisdaten')).toBeTruthy();
    expect(button('Zurück')).toHaveProperty('disabled', true);
    expect(screen.getByRole('link', { name: 'Schließen' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.getByLabelText('Marke *')).toHaveProperty('value', 'Volkswagen');

    expect(screen.getByRole('heading', { name: 'Deine Quartett-Karte' })).toBeTruthy();
    const card = screen.getByRole('article', { name: 'Quartett-Karte: Rote Zora' });
    expect(within(card).getByText('Heckantrieb')).toBeTruthy();
    expect(within(card).getByText('185 PS')).toBeTruthy();

    const name = screen.getByLabelText('Name auf der Karte');
    await user.clear(name);
    await user.type(name, 'Der Blitz');
    expect(screen.getByRole('article', { name: 'Quartett-Karte: Der Blitz' })).toBeTruthy();
    await user.clear(name);
    expect(screen.getByRole('article', { name: 'Quartett-Karte: Volkswagen Golf II GTI 16V' })).toBeTruthy();
  });

  it('offers lower-case drive types and no fuel selector', async () => {
    api();
    const user = userEvent.setup();
    await renderRoute(`/edit/${ID}`);
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await user.click(button('Weiter'));
    await screen.findByRole('heading', { name: 'Leistungsdaten' });

    const drive = document.querySelector<HTMLSelectElement>('select[name="driveType"]');
    expect([...(drive?.options ?? [])].map((option) => option.value).filter(Boolean)).toEqual([
      'fwd',
      'rwd',
      'awd',
    ]);
    expect(drive?.value).toBe('rwd');
    expect(screen.getByRole('combobox', { name: 'Antriebsart' }).textContent).toContain('rwd');
    expect(document.querySelector('select[name="fuelType"]')).toBeNull();
    expect(screen.queryByText('Kraftstoff')).toBeNull();
  });

  it('validates 0-100 km/h with the edit messages before leaving step 2', async () => {
    api();
    const user = userEvent.setup();
    await renderRoute(`/edit/${ID}`);
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await user.click(button('Weiter'));
    await screen.findByRole('heading', { name: 'Leistungsdaten' });

    const sprint = screen.getByLabelText('0-100 km/h (s) *');
    expect(sprint).toHaveProperty('value', '7,2');
    await user.clear(sprint);
    await user.click(button('Weiter'));
    expect(stepHeading()?.textContent).toBe('Leistungsdaten');
    expect(screen.getByText('Bitte geben Sie einen gültigen Wert ein')).toBeTruthy();
    expect(sprint.getAttribute('aria-invalid')).toBe('true');

    await user.type(sprint, 'schnell');
    expect(screen.getByText('Bitte geben Sie einen gültigen Wert ein')).toBeTruthy();
    await user.clear(sprint);
    await user.type(sprint, '-1');
    expect(screen.getByText('Wert muss mindestens 0 sein')).toBeTruthy();
    await user.clear(sprint);
    await user.type(sprint, '301');
    expect(screen.getByText('Wert darf maximal 300 sein')).toBeTruthy();
    await user.click(button('Weiter'));
    expect(stepHeading()?.textContent).toBe('Leistungsdaten');

    await user.clear(sprint);
    await user.type(sprint, '6,9');
    expect(screen.getByRole('article', { name: /Quartett-Karte/ }).textContent).toContain('6,9 s');
    await user.click(button('Weiter'));
    expect(await screen.findByRole('heading', { name: 'Bilder verwalten' })).toBeTruthy();
    expect(screen.getByText('Schritt 3 von 3: Bilder verwalten')).toBeTruthy();
  });

  it('warns that a changed crop of the main image must be saved', async () => {
    api();
    const user = userEvent.setup();
    await renderRoute(`/edit/${ID}`);
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await toImages(user);

    const warning = /Bildausschnitt des Hauptbilds wurde geändert/;
    expect(screen.queryByText(warning)).toBeNull();
    const [heroZoom, secondZoom] = screen.getAllByRole('slider', { name: /Zoom/ });
    expect(heroZoom).toHaveProperty('value', '120');

    fireEvent.change(secondZoom!, { target: { value: '150' } });
    expect(screen.queryByText(warning)).toBeNull();

    fireEvent.change(heroZoom!, { target: { value: '140' } });
    expect(screen.getByText(warning)).toBeTruthy();
    await user.click(button(/^Zuschnitt zurücksetzen: Bild 1/));
    // Back to 50/50/100, which differs from the saved 40/50/120: still unsaved.
    expect(screen.getByText(warning)).toBeTruthy();
  });

  it('queues a removal and sends it only on save, then goes to the dashboard', async () => {
    const { writes } = api();
    const user = userEvent.setup();
    const { router } = await renderRoute(`/edit/${ID}`);
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await toImages(user);

    await user.click(button(/^Entfernen: Bild 2/));
    expect(screen.getByText('Zum Löschen vorgemerkt (1)')).toBeTruthy();
    expect(screen.getAllByRole('slider', { name: /Zoom/ })).toHaveLength(1);
    expect(writes()).toEqual([]);

    await user.click(button('Speichern'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('Fahrzeug aktualisiert!')).toBeTruthy();
    expect(screen.getByText('Ihre Änderungen wurden gespeichert.')).toBeTruthy();

    expect(writes()).toEqual([
      { method: 'PATCH', path: `/api/vehicles/${ID}`, body: {} },
      { method: 'DELETE', path: `/api/vehicles/${ID}/media/${SECOND_ID}`, body: undefined },
      {
        method: 'PATCH',
        path: `/api/vehicles/${ID}/media`,
        body: { updates: [{ id: HERO_ID, isHero: true, cropX: '40.00', cropY: '50.00', scale: '120.00' }] },
      },
    ]);
  });

  it('can undo a queued removal, and sends edited fields, new images and crop changes on save', async () => {
    const { writes } = api();
    const user = userEvent.setup();
    await renderRoute(`/edit/${ID}`);
    await screen.findByRole('heading', { name: 'Basisdaten' });
    const color = screen.getByLabelText('Farbe');
    await user.clear(color);
    await user.type(color, 'Alpinweiß');
    await user.click(button('Weiter'));
    await screen.findByRole('heading', { name: 'Leistungsdaten' });
    const sprint = screen.getByLabelText('0-100 km/h (s) *');
    await user.clear(sprint);
    await user.type(sprint, '6,9');
    await user.click(button('Weiter'));
    await screen.findByRole('heading', { name: 'Bilder verwalten' });

    await user.click(button(/^Entfernen: Bild 2/));
    await user.click(button('Löschen rückgängig: Gespeichertes Bild 2'));
    expect(screen.queryByText(/Zum Löschen vorgemerkt/)).toBeNull();

    const picker = screen.getByLabelText('Bild hinzufügen');
    expect(picker).toHaveProperty('multiple', false);
    await user.upload(picker, new File(['x'], 'neu.jpg', { type: 'image/jpeg' }));
    expect(await screen.findByText('Neu – wird beim Speichern hinzugefügt.')).toBeTruthy();
    fireEvent.change(screen.getAllByRole('slider', { name: /Position vertikal/ })[0]!, {
      target: { value: '30' },
    });

    await user.click(button('Speichern'));
    await waitFor(() => expect(writes()).toHaveLength(3));
    expect(writes()).toEqual([
      {
        method: 'PATCH',
        path: `/api/vehicles/${ID}`,
        body: { color: 'Alpinweiß', zeroToHundredS: 6.9 },
      },
      {
        method: 'POST',
        path: `/api/vehicles/${ID}/media`,
        body: { type: 'image', url: '/objects/uploads/test/neu.jpg', isHero: false },
      },
      {
        method: 'PATCH',
        path: `/api/vehicles/${ID}/media`,
        body: { updates: [{ id: HERO_ID, isHero: true, cropX: '40.00', cropY: '30.00', scale: '120.00' }] },
      },
    ]);
  });

  it('shows the server message when saving is refused', async () => {
    const locked =
      'Das Quartett ist freigegeben: Die Daten dieses Fahrzeugs können nicht mehr geändert werden.';
    const refusal = deferredReply({ status: 409, body: { message: locked } });
    api({ [`PATCH /api/vehicles/${ID}`]: refusal.reply });
    const user = userEvent.setup();
    const { router } = await renderRoute(`/edit/${ID}`);
    await screen.findByRole('heading', { name: 'Basisdaten' });
    await toImages(user);
    await user.click(button('Speichern'));
    expect(await screen.findByRole('button', { name: 'Speichern...' })).toHaveProperty('disabled', true);
    refusal.release();

    expect(await screen.findByText('Aktualisierung fehlgeschlagen')).toBeTruthy();
    expect(screen.getByText(locked)).toBeTruthy();
    expect(router.state.location.pathname).toBe(`/edit/${ID}`);
    expect(button('Speichern')).toHaveProperty('disabled', false);
  });
});
