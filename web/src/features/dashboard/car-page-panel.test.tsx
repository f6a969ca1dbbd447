import { CONSENTS, DEFAULT_SITE_CONFIG } from '@schlosstreffen/shared';
import type { Consent } from '@schlosstreffen/shared/api';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAppClock } from '../../lib/app-clock';
import { mockApi, renderAt, setupScreenTests, SIGNED_IN_USER } from '../../test/screen-helpers';
import { installDomShims } from '../vehicle-form/test-helpers';
import { makeInvitation, makeVehicle } from '../vehicles/vehicle-fixtures';

// The page as the server wrote it in May 2026: the car's edition is under way, not over.
vi.mock('../../lib/site-config', () => ({
  getSiteConfig: () => ({
    ...DEFAULT_SITE_CONFIG,
    applicationsOpenAt: '2025-12-01T09:00:00+01:00',
    now: '2026-05-02T10:00:00.000Z',
  }),
}));

setupScreenTests();
beforeEach(() => {
  resetAppClock();
  installDomShims();
});

const VEHICLE_ID = '00000000-0000-4000-8000-0000000000a1';
const CONFIRMED = makeVehicle({
  id: VEHICLE_ID,
  name: 'Blaue Berta',
  status: 'confirmed',
  invitation: makeInvitation({ startNumber: 17 }),
  edition: { year: 2026, name: 'Schlosstreffen 2026' },
});

const consent = (withdrawnAt: string | null): Consent => ({
  id: 'c-1',
  kind: 'instagram',
  vehicleId: VEHICLE_ID,
  vehicleTitle: 'Blaue Berta',
  version: CONSENTS.instagram.version,
  wording: CONSENTS.instagram.text,
  source: 'dashboard',
  grantedAt: '2026-05-01T10:00:00.000Z',
  withdrawnAt,
});

describe("the dashboard's car page panel", () => {
  it('links a confirmed car to its page and lets the owner show their Instagram name, and take it back', async () => {
    let consents: Consent[] = [];
    const api = mockApi({
      'GET /api/auth/user': () => ({ body: { ...SIGNED_IN_USER, instagramHandle: 'berta.alpine' } }),
      'GET /api/vehicles': () => ({ body: [CONFIRMED] }),
      'GET /api/account/consents': () => ({ body: consents }),
      [`POST /api/vehicles/${VEHICLE_ID}/consents/instagram`]: () => {
        consents = [consent(null)];
        return { status: 201, body: consents[0] };
      },
      'POST /api/account/consents/c-1/withdraw': () => {
        consents = [consent('2026-05-02T10:00:00.000Z')];
        return { body: consents[0] };
      },
    });
    const { user } = await renderAt('/dashboard');
    const card = await screen.findByRole('article', { name: 'Blaue Berta' });
    expect(
      within(card).getByRole('link', { name: 'Fahrzeugseite ansehen (Nr. 17)' }).getAttribute('href'),
    ).toBe('/fahrzeuge/2026/17');
    const box = within(card).getByRole('checkbox', { name: CONSENTS.instagram.label });
    await waitFor(() => expect((box as HTMLInputElement).disabled).toBe(false));
    expect((box as HTMLInputElement).checked).toBe(false);
    expect(within(card).getByText(/Zeigt @berta\.alpine/)).toBeTruthy();

    await user.click(within(card).getByText(CONSENTS.instagram.label));
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(true));
    expect(api.writes().map((call) => `${call.method} ${call.path}`)).toEqual([
      `POST /api/vehicles/${VEHICLE_ID}/consents/instagram`,
    ]);

    await user.click(within(card).getByText(CONSENTS.instagram.label));
    await waitFor(() => expect((box as HTMLInputElement).checked).toBe(false));
    expect(api.writes().at(-1)?.path).toBe('/api/account/consents/c-1/withdraw');
  });

  it('asks for an Instagram name first when the account has none', async () => {
    mockApi({
      'GET /api/auth/user': () => ({ body: SIGNED_IN_USER }),
      'GET /api/vehicles': () => ({ body: [CONFIRMED] }),
      'GET /api/account/consents': () => ({ body: [] }),
    });
    await renderAt('/dashboard');
    const card = await screen.findByRole('article', { name: 'Blaue Berta' });
    expect(await within(card).findByText('Trage zuerst deinen Instagram-Namen im Profil ein.')).toBeTruthy();
    expect(
      (within(card).getByRole('checkbox', { name: CONSENTS.instagram.label }) as HTMLInputElement).disabled,
    ).toBe(true);
  });
});
