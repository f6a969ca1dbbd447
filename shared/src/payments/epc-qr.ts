/**
 * The text of a GiroCode (EPC QR code, EPC069-12): a SEPA credit transfer that a banking app fills
 * in when it scans the code. Version 002, UTF-8, the amount filled in, the payment reference as the
 * unstructured remittance. The QR image itself (error correction level M, at most version 13) is
 * drawn by whoever shows it.
 */
import { bicProblem, ibanProblem, normalizeBic, normalizeIban } from './bank-account.js';

export interface EpcQrTransfer {
  /** The beneficiary (account holder), 1–70 characters. */
  name: string;
  iban: string;
  /** Optional in version 002 (within the EEA). */
  bic?: string | null;
  /** 1 to 99,999,999,999 (0.01 to 999,999,999.99 €). */
  amountCents: number;
  /** The unstructured remittance information, at most 140 characters: the payment reference. */
  remittance: string;
}

/** The payload's largest size in bytes: QR version 13 at level M. */
export const EPC_QR_MAX_BYTES = 331;

/** 'EUR12.50': a decimal point, no thousands separator, two decimals. */
export function epcAmount(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents) || amountCents < 1 || amountCents > 99_999_999_999)
    throw new RangeError(`EPC QR amount out of range: ${amountCents} cents`);
  const euros = Math.floor(amountCents / 100);
  const cents = String(amountCents % 100).padStart(2, '0');
  return `EUR${euros}.${cents}`;
}

function text(field: string, value: string, max: number): string {
  const trimmed = value.trim();
  if (/[\r\n]/.test(trimmed)) throw new RangeError(`EPC QR ${field} must be one line`);
  if ([...trimmed].length > max) throw new RangeError(`EPC QR ${field} is longer than ${max} characters`);
  return trimmed;
}

/**
 * The payload: the data elements one a line, joined by '\n', in this order — service tag 'BCD',
 * version '002', character set '1' (UTF-8), identification 'SCT', BIC, name, IBAN, amount, purpose
 * (empty), structured reference (empty), unstructured remittance, beneficiary-to-originator
 * information (empty). Nothing follows the last element that has a value: trailing empty elements
 * are left out, without their line breaks. Throws a RangeError for what a GiroCode cannot carry.
 */
export function epcQrPayload(transfer: EpcQrTransfer): string {
  const name = text('name', transfer.name, 70);
  if (name === '') throw new RangeError('EPC QR name is empty');
  const iban = normalizeIban(transfer.iban);
  if (ibanProblem(iban)) throw new RangeError('EPC QR IBAN is invalid');
  const bic = transfer.bic?.trim() ? normalizeBic(transfer.bic) : '';
  if (bic && bicProblem(bic)) throw new RangeError('EPC QR BIC is invalid');
  const lines = [
    'BCD',
    '002',
    '1',
    'SCT',
    bic,
    name,
    iban,
    epcAmount(transfer.amountCents),
    '',
    '',
    text('remittance', transfer.remittance, 140),
    '',
  ];
  while (lines.at(-1) === '') lines.pop();
  const payload = lines.join('\n');
  const bytes = new TextEncoder().encode(payload).length;
  if (bytes > EPC_QR_MAX_BYTES)
    throw new RangeError(`EPC QR payload has ${bytes} bytes, at most ${EPC_QR_MAX_BYTES} fit`);
  return payload;
}
