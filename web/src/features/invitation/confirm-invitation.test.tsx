import type { Vehicle } from '@schlosstreffen/shared/api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, mockSignedIn, renderAt, setupScreenTests } from '../../test/screen-helpers';
import { makeInvitation, makeVehicle } from '../vehicles/vehicle-fixtures';

setupScreenTests();

const CONFIRMED = { status: 'confirmed', message: 'Deine Teilnahme ist bestätigt. Wir freuen uns auf dich!' };

const OPEN_FEE = {
  status: 'open',
  reference: 'ST26-K7Q2P-K',
  amountCents: 2500,
  paidCents: 0,
  dueAt: '2026-04-29T08:00:00.000Z',
  payTo: { accountHolder: 'Schlosstreffen e. V.', iban: 'DE89370400440532013000', bic: null },
} as const;

/** The owner's cars as GET /api/vehicles answers after confirming: one confirmed, one still invited. */
const CARS: Vehicle[] = [
  makeVehicle({
    id: '00000000-0000-4000-8000-000000000061',
    name: 'Roter Blitz',
    status: 'confirmed',
    edition: { year: 2026, name: 'Schlosstreffen 2026', phase: 'open' },
    invitation: makeInvitation(),
    payment: OPEN_FEE,
  }),
  makeVehicle({
    id: '00000000-0000-4000-8000-000000000062',
    name: 'Grüner Pfeil',
    status: 'invited',
    edition: { year: 2026, name: 'Schlosstreffen 2026', phase: 'open' },
    invitation: makeInvitation({ startNumber: 8 }),
    payment: { ...OPEN_FEE, reference: 'ST26-M3R4S-T' },
  }),
];

async function confirm() {
  const { user } = await renderAt('/einladung?token=tok-1');
  await user.click(await screen.findByRole('button', { name: 'Teilnahme bestätigen' }));
  return screen.findByText(CONFIRMED.message);
}

describe('/einladung after confirming', () => {
  it("shows the signed-in owner the confirmed car's fee with the transfer and its GiroCode", async () => {
    const { calls } = mockSignedIn({
      'POST /api/invitations/confirm': () => ({ body: CONFIRMED }),
      'GET /api/vehicles': () => ({ body: CARS }),
    });
    await confirm();

    const fee = await screen.findByRole('region', { name: 'Startgeld' });
    expect(within(fee).getByText('Roter Blitz')).toBeTruthy();
    expect(within(fee).getByText('ST26-K7Q2P-K')).toBeTruthy();
    expect(within(fee).getByText('DE89 3704 0044 0532 0130 00')).toBeTruthy();
    expect(
      within(fee)
        .getByRole('img', { name: 'GiroCode für die Überweisung des Startgelds' })
        .getAttribute('src'),
    ).toBe('/api/vehicles/00000000-0000-4000-8000-000000000061/girocode.svg');
    // The car not confirmed here has no section of its own.
    expect(screen.getAllByRole('region', { name: 'Startgeld' })).toHaveLength(1);
    expect(screen.queryByText('ST26-M3R4S-T')).toBeNull();
    expect(calls.find((call) => call.path === '/api/invitations/confirm')?.body).toEqual({ token: 'tok-1' });
  });

  it('tells a visitor who is not signed in where the fee stands, without asking for vehicles', async () => {
    const { calls } = mockApi({ 'POST /api/invitations/confirm': () => ({ body: CONFIRMED }) });
    await confirm();

    expect(await screen.findByText(/findest du Betrag, Bankverbindung und GiroCode/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Meine Fahrzeuge' }).getAttribute('href')).toBe('/dashboard');
    expect(screen.queryByRole('region', { name: 'Startgeld' })).toBeNull();
    expect(calls.some((call) => call.path === '/api/vehicles')).toBe(false);
  });
});
