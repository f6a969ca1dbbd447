/**
 * Amounts as integer cents, read from their decimal text without floating point: at most 13 digits
 * before the separator keep every cent value below 2^53.
 */
export type CentsResult = { ok: true; cents: number } | { ok: false; reason: 'invalid' | 'sub_cent' };

const toCents = (integer: string, fraction: string, negative: boolean): CentsResult => {
  if (integer.length > 13) return { ok: false, reason: 'invalid' };
  if (!/^0*$/.test(fraction.slice(2))) return { ok: false, reason: 'sub_cent' };
  const cents = Number(integer) * 100 + Number(fraction.slice(0, 2).padEnd(2, '0'));
  return { ok: true, cents: negative && cents !== 0 ? -cents : cents };
};

/** An ISO 20022 amount ('25', '25.5', '0025.50', '8.85000'): unsigned, a point before the fraction. */
export function decimalToCents(text: string): CentsResult {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) return { ok: false, reason: 'invalid' };
  return toCents(match[1]!.replace(/^0+(?=\d)/, ''), match[2] ?? '', false);
}

/**
 * An amount of a bank's CSV export, signed ('-1.234,56', '1234,56', '+25,00', '25,00-'): with
 * `decimalComma` a comma before the fraction and points between thousands, otherwise the reverse.
 */
export function csvAmountToCents(text: string, decimalComma: boolean): CentsResult {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  const [group, decimal] = decimalComma ? ['\\.', ','] : [',', '\\.'];
  const pattern = new RegExp(`^([+-])?(\\d{1,3}(?:${group}\\d{3})+|\\d+)(?:${decimal}(\\d+))?(-)?$`);
  const match = pattern.exec(compact);
  if (!match || (match[1] && match[4])) return { ok: false, reason: 'invalid' };
  const integer = match[2]!.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  return toCents(integer, match[3] ?? '', match[1] === '-' || match[4] === '-');
}

/** Cents as the decimal text camt uses ('25.00'), for messages and skipped entries of a CSV. */
export function centsToDecimal(cents: number): string {
  const abs = Math.abs(cents);
  return `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
