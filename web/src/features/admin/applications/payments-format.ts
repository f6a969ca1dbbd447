import type { PaymentRow } from '@schlosstreffen/shared/api';
import { formatDate } from '../../../lib/date-format';

/** 'Nr. 7 · Roter Blitz'; without a start number the car alone. */
export function carLine({ startNumber, vehicleTitle }: Pick<PaymentRow, 'startNumber' | 'vehicleTitle'>) {
  const car = vehicleTitle ?? 'Fahrzeug gelöscht';
  return startNumber === null ? car : `Nr. ${startNumber} · ${car}`;
}

/** A statement's booking day ('2026-06-03') as '03.06.2026'; '–' without one. */
export function bookingDateText(day: string | null): string {
  return day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? formatDate(`${day}T12:00:00Z`) : '–';
}
