import { describe, expect, it } from 'vitest';
import { EPC_QR_MAX_BYTES, epcAmount, epcQrPayload, type EpcQrTransfer } from './epc-qr.js';

const transfer: EpcQrTransfer = {
  name: 'Schlosstreffen e.V.',
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'cobadeffxxx',
  amountCents: 2500,
  remittance: 'ST26-K7Q2P-K',
};

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('epcQrPayload', () => {
  it('writes the data elements one a line, in the order of EPC069-12', () => {
    const lines = epcQrPayload(transfer).split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('BCD'); // service tag
    expect(lines[1]).toBe('002'); // version
    expect(lines[2]).toBe('1'); // character set: UTF-8
    expect(lines[3]).toBe('SCT'); // identification: SEPA credit transfer
    expect(lines[4]).toBe('COBADEFFXXX'); // BIC of the beneficiary's bank
    expect(lines[5]).toBe('Schlosstreffen e.V.'); // beneficiary's name
    expect(lines[6]).toBe('DE89370400440532013000'); // beneficiary's IBAN, electronic form
    expect(lines[7]).toBe('EUR25.00'); // amount
    expect(lines[8]).toBe(''); // purpose code
    expect(lines[9]).toBe(''); // structured remittance (creditor reference)
    expect(lines[10]).toBe('ST26-K7Q2P-K'); // unstructured remittance
  });

  it('is exactly this text, with nothing after the last element that has a value', () => {
    const payload = epcQrPayload(transfer);
    expect(payload).toBe(
      'BCD\n002\n1\nSCT\nCOBADEFFXXX\nSchlosstreffen e.V.\nDE89370400440532013000\nEUR25.00\n\n\nST26-K7Q2P-K',
    );
    expect(payload.endsWith('\n')).toBe(false);
    expect(payload).not.toContain('\r');
  });

  it('leaves the BIC line empty without a BIC', () => {
    for (const bic of [undefined, null, '', '  ']) {
      const lines = epcQrPayload({ ...transfer, bic }).split('\n');
      expect(lines[4]).toBe('');
      expect(lines).toHaveLength(11);
    }
  });

  it('ends with the amount when there is no remittance', () => {
    expect(epcQrPayload({ ...transfer, remittance: '' })).toBe(
      'BCD\n002\n1\nSCT\nCOBADEFFXXX\nSchlosstreffen e.V.\nDE89370400440532013000\nEUR25.00',
    );
  });

  it('keeps an umlaut name in UTF-8', () => {
    const name = 'Oldtimerfreunde Müller & Söhne e.V.';
    const payload = epcQrPayload({ ...transfer, name });
    expect(payload.split('\n')[5]).toBe(name);
    expect(bytes(payload)).toBe(payload.length + 2);
    expect([...new TextEncoder().encode('ü')]).toEqual([0xc3, 0xbc]);
  });

  it('stays within 331 bytes, counted in bytes, not characters', () => {
    const longest = {
      ...transfer,
      name: 'N'.repeat(70),
      iban: 'MT84 MALT 0110 0001 2345 MTLC AST0 01S',
      amountCents: 99_999_999_999,
      remittance: 'R'.repeat(140),
    };
    expect(bytes(epcQrPayload(longest))).toBeLessThanOrEqual(EPC_QR_MAX_BYTES);
    expect(() => epcQrPayload({ ...longest, name: 'Ä'.repeat(70) })).toThrow(/331/);
  });

  it('refuses what a GiroCode cannot carry', () => {
    expect(() => epcQrPayload({ ...transfer, name: ' ' })).toThrow(RangeError);
    expect(() => epcQrPayload({ ...transfer, name: 'N'.repeat(71) })).toThrow(RangeError);
    expect(() => epcQrPayload({ ...transfer, name: 'Zeile\nZwei' })).toThrow(RangeError);
    expect(() => epcQrPayload({ ...transfer, remittance: 'R'.repeat(141) })).toThrow(RangeError);
    expect(() => epcQrPayload({ ...transfer, iban: 'DE88 3704 0044 0532 0130 00' })).toThrow(RangeError);
    expect(() => epcQrPayload({ ...transfer, bic: 'COBADE' })).toThrow(RangeError);
    expect(() => epcQrPayload({ ...transfer, amountCents: 0 })).toThrow(RangeError);
  });
});

describe('epcAmount', () => {
  it.each([
    [1, 'EUR0.01'],
    [10, 'EUR0.10'],
    [1250, 'EUR12.50'],
    [2500, 'EUR25.00'],
    [100_000, 'EUR1000.00'],
    [123_456_789, 'EUR1234567.89'],
    [99_999_999_999, 'EUR999999999.99'],
  ])('%i cents → %s', (cents, text) => {
    expect(epcAmount(cents)).toBe(text);
  });

  it.each([0, -1, 12.5, 100_000_000_000, Number.NaN])('refuses %d', (cents) => {
    expect(() => epcAmount(cents)).toThrow(RangeError);
  });
});
