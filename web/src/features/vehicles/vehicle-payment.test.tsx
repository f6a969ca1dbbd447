import { formatEuro, PAYMENT_MESSAGES } from '@schlosstreffen/shared';
import type { VehiclePayment } from '@schlosstreffen/shared/api';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { toaster } from '../../components/ui/toaster';
import { VehiclePaymentSection } from './vehicle-payment';

afterEach(() => {
  cleanup();
  toaster.remove();
});

const VEHICLE_ID = 'a1b2c3d4-0000-4000-8000-000000000001';

function payment(overrides: Partial<VehiclePayment> = {}): VehiclePayment {
  return {
    status: 'open',
    reference: 'ST26-K7Q2P-K',
    amountCents: 2500,
    paidCents: 0,
    // 23:59 in Berlin (summer time).
    dueAt: '2026-05-06T21:59:00.000Z',
    payTo: { accountHolder: 'Schlosstreffen e. V.', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
    ...overrides,
  };
}

/** The value under a label of the section's list. */
function valueOf(label: string): string | null | undefined {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
}

describe('VehiclePaymentSection', () => {
  it('shows an open fee with every transfer detail, the copy button and the GiroCode apart from the check-in code', async () => {
    render(<VehiclePaymentSection vehicleId={VEHICLE_ID} payment={payment()} />);

    const section = screen.getByRole('region', { name: 'Startgeld' });
    expect(within(section).getByText('Offen').className).toContain('bg-yellow-100');
    expect(valueOf('Betrag')).toBe(formatEuro(2500));
    expect(valueOf('Kontoinhaber')).toBe('Schlosstreffen e. V.');
    expect(valueOf('IBAN')).toBe('DE89 3704 0044 0532 0130 00');
    expect(valueOf('BIC')).toBe('COBADEFFXXX');
    expect(screen.getByText('ST26-K7Q2P-K').className).toContain('font-mono');
    expect(valueOf('Zahlen bis')).toBe('06.05.2026, 23:59 Uhr');
    expect(section.textContent).toContain('in der öffentlichen Liste, im Quartett und beim Einlass');

    const girocode = screen.getByRole('figure', { name: PAYMENT_MESSAGES.girocodeLabel });
    const image = within(girocode).getByRole('img', { name: 'GiroCode für die Überweisung des Startgelds' });
    expect(image.getAttribute('src')).toBe(`/api/vehicles/${VEHICLE_ID}/girocode.svg`);
    expect(within(girocode).getByText(PAYMENT_MESSAGES.girocodeNote)).toBeTruthy();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Verwendungszweck kopieren' }));
    expect(await navigator.clipboard.readText()).toBe('ST26-K7Q2P-K');
  });

  it('states the paid and the open part of a partial payment, and asks for the meeting without a deadline', () => {
    render(
      <VehiclePaymentSection
        vehicleId={VEHICLE_ID}
        payment={payment({
          status: 'partial',
          paidCents: 1000,
          dueAt: null,
          payTo: { ...payment().payTo!, bic: null },
        })}
      />,
    );
    expect(screen.getByText('Teilweise bezahlt')).toBeTruthy();
    expect(valueOf('Betrag')).toBe(
      `bezahlt ${formatEuro(1000)} von ${formatEuro(2500)}, offen ${formatEuro(1500)}`,
    );
    expect(valueOf('Zahlen bis')).toBe('Bitte bis zum Treffen überweisen.');
    expect(screen.queryByText('BIC', { selector: 'dt' })).toBeNull();
    expect(screen.getByRole('img', { name: 'GiroCode für die Überweisung des Startgelds' })).toBeTruthy();
  });

  it('confirms a paid fee without transfer details or GiroCode', () => {
    render(
      <VehiclePaymentSection
        vehicleId={VEHICLE_ID}
        payment={payment({ status: 'paid', paidCents: 2500, payTo: null })}
      />,
    );
    const section = screen.getByRole('region', { name: 'Startgeld' });
    expect(within(section).getByText('Bezahlt')).toBeTruthy();
    expect(valueOf('Betrag')).toBe(formatEuro(2500));
    expect(within(section).getByText('Dein Startgeld ist eingegangen. Danke!')).toBeTruthy();
    for (const label of ['Kontoinhaber', 'IBAN', 'Verwendungszweck', 'Zahlen bis']) {
      expect(within(section).queryByText(label)).toBeNull();
    }
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('figure')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says the money goes or went back', () => {
    const { rerender } = render(
      <VehiclePaymentSection
        vehicleId={VEHICLE_ID}
        payment={payment({ status: 'refund_due', paidCents: 2500, payTo: null })}
      />,
    );
    expect(screen.getByText('Erstattung fällig')).toBeTruthy();
    expect(screen.getByText(/Du bekommst dein Startgeld zurück/)).toBeTruthy();
    rerender(
      <VehiclePaymentSection
        vehicleId={VEHICLE_ID}
        payment={payment({ status: 'refunded', paidCents: 2500, payTo: null })}
      />,
    );
    expect(screen.getByText('Dein Startgeld wurde dir zurückgezahlt.')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('renders nothing without a payment', () => {
    const { container } = render(<VehiclePaymentSection vehicleId={VEHICLE_ID} payment={null} />);
    expect(container.innerHTML).toBe('');
  });
});
