import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { flattenIssues } from '../schemas/issues.js';
import { BANK_ACCOUNT_MESSAGES } from './bank-account.js';
import { EditionFeeSchema, FEE_MESSAGES, type EditionFee } from './fee.js';

const input = {
  amountCents: 2500,
  accountHolder: ' Oldtimerfreunde Müller & Söhne e.V. ',
  iban: 'de89 3704 0044 0532 0130 00',
  bic: 'cobadeffxxx',
  payWithinDays: 7,
  refund: { fullUntil: '2026-05-31', keepCents: 500 },
};

function issues(value: unknown) {
  return flattenIssues(v.safeParse(EditionFeeSchema, value).issues ?? []);
}

describe('EditionFeeSchema', () => {
  it('accepts a fee and normalizes its account', () => {
    const fee: EditionFee | null = v.parse(EditionFeeSchema, input);
    expect(fee).toEqual({
      amountCents: 2500,
      accountHolder: 'Oldtimerfreunde Müller & Söhne e.V.',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      payWithinDays: 7,
      refund: { fullUntil: '2026-05-31', keepCents: 500 },
    });
  });

  it('takes null to remove the fee', () => {
    expect(v.parse(EditionFeeSchema, null)).toBeNull();
  });

  it('defaults to 5 days to pay and no BIC', () => {
    const { payWithinDays: _days, bic: _bic, ...rest } = input;
    expect(v.parse(EditionFeeSchema, rest)).toMatchObject({ payWithinDays: 5, bic: null });
    expect(v.parse(EditionFeeSchema, { ...input, bic: '' })).toMatchObject({ bic: null });
    expect(v.parse(EditionFeeSchema, { ...input, bic: null })).toMatchObject({ bic: null });
  });

  it('takes a refund rule without a date and one keeping the whole fee', () => {
    expect(
      v.parse(EditionFeeSchema, { ...input, refund: { fullUntil: null, keepCents: 2500 } }),
    ).toMatchObject({
      refund: { fullUntil: null, keepCents: 2500 },
    });
  });

  it.each([
    [{ amountCents: 0 }, 'amountCents', FEE_MESSAGES.amountRange],
    [{ amountCents: 100_001 }, 'amountCents', FEE_MESSAGES.amountRange],
    [{ amountCents: 12.5 }, 'amountCents', FEE_MESSAGES.amount],
    [{ amountCents: '25' }, 'amountCents', FEE_MESSAGES.amount],
    [{ accountHolder: '  ' }, 'accountHolder', FEE_MESSAGES.accountHolderRequired],
    [{ accountHolder: 'A'.repeat(71) }, 'accountHolder', FEE_MESSAGES.accountHolderMax],
    [
      { accountHolder: 'Café Racer Club €' },
      'accountHolder',
      FEE_MESSAGES.accountHolderCharacters('„é“ „€“'),
    ],
    [{ iban: 'DE88 3704 0044 0532 0130 00' }, 'iban', BANK_ACCOUNT_MESSAGES.ibanChecksum],
    [
      { iban: 'DE89 3704 0044 0532 0130 0' },
      'iban',
      'Die IBAN ist zu kurz für Deutschland: 21 statt 22 Zeichen.',
    ],
    [{ bic: 'COBADE' }, 'bic', BANK_ACCOUNT_MESSAGES.bicLength],
    [{ payWithinDays: 61 }, 'payWithinDays', FEE_MESSAGES.payWithinDays],
    [{ payWithinDays: -1 }, 'payWithinDays', FEE_MESSAGES.payWithinDays],
    [{ payWithinDays: 2.5 }, 'payWithinDays', FEE_MESSAGES.payWithinDays],
    [{ refund: { fullUntil: '2026-02-30', keepCents: 0 } }, 'refund.fullUntil', FEE_MESSAGES.fullUntil],
    [{ refund: { fullUntil: '31.05.2026', keepCents: 0 } }, 'refund.fullUntil', FEE_MESSAGES.fullUntil],
    [{ refund: { fullUntil: null, keepCents: -1 } }, 'refund.keepCents', FEE_MESSAGES.keepCents],
    [{ refund: { fullUntil: null, keepCents: 2501 } }, 'refund.keepCents', FEE_MESSAGES.keepAboveAmount],
    [{ refund: { fullUntil: null } }, 'refund.keepCents', FEE_MESSAGES.keepCents],
    [{ refund: 'voll' }, 'refund', FEE_MESSAGES.refund],
  ])('%j → %s: %s', (change, field, message) => {
    expect(issues({ ...input, ...change })).toEqual([{ field, message }]);
  });

  it('names missing fields in German', () => {
    expect(issues({})).toEqual([
      { field: 'amountCents', message: FEE_MESSAGES.amount },
      { field: 'accountHolder', message: FEE_MESSAGES.accountHolderRequired },
      { field: 'iban', message: BANK_ACCOUNT_MESSAGES.ibanRequired },
      { field: 'refund', message: FEE_MESSAGES.refund },
    ]);
    expect(issues('25 €')).toEqual([{ field: '', message: FEE_MESSAGES.fee }]);
  });
});
