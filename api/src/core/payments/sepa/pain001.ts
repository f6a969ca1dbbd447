/**
 * A SEPA credit transfer initiation (pain.001.001.09) for refunds, as the German banks take it
 * (DFÜ-Abkommen, Anlage 3 of the Deutsche Kreditwirtschaft): one payment information block from the
 * organizer's account, transfer (TRF) by SEPA, batch booking, charges shared (SLEV), one
 * transaction per refund. Pure: the caller stores the file and its ids.
 */
import { bicProblem, ibanProblem, normalizeBic, normalizeIban } from '@schlosstreffen/shared';
import { DomainError } from '../../errors.js';
import { SEPA_MESSAGES as M } from './messages.js';
import { hasLetterOrDigit, isSepaIdentifier, toSepaText } from './sepa-text.js';

export const PAIN001_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';

export const PAIN001_LIMITS = {
  /** Names: the XSD allows 140 characters, the German banks 70. */
  nameLength: 70,
  /** Unstructured remittance information (`RmtInf/Ustrd`). */
  remittanceLength: 140,
  /** 999,999,999.99 €, the largest amount of a SEPA credit transfer. */
  maxAmountCents: 99_999_999_999,
} as const;

export interface Pain001Account {
  name: string;
  /** Any spelling; written in its electronic form. */
  iban: string;
  /** Null when unknown: the bank finds it from the IBAN ('NOTPROVIDED' for the debtor's bank). */
  bic: string | null;
}

export interface Pain001Transfer {
  /** Reported back on the statements of both sides: 1–35 characters, see `isSepaIdentifier`. */
  endToEndId: string;
  /** The instruction id between the organizer and its bank (optional, same rules). */
  instructionId?: string;
  /** Integer cents, 1 to 99,999,999,999. */
  amountCents: number;
  creditorName: string;
  creditorIban: string;
  creditorBic: string | null;
  /** Unstructured remittance information; cut to 140 characters, left out when empty. */
  remittance: string;
}

export interface Pain001Input {
  /** 1–35 characters, unique per file sent to the bank; also the payment information id. */
  messageId: string;
  createdAt: Date;
  /** The requested execution date, 'YYYY-MM-DD'. */
  executionDate: string;
  debtor: Pain001Account;
  transfers: readonly Pain001Transfer[];
}

const invalid = (message: string) => new DomainError('invalid', message);

/** Integer cents as '25.00', by their digits: no floating point. */
function formatCents(cents: number): string {
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

function xmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function name(value: string, error: () => string): string {
  const text = toSepaText(value, PAIN001_LIMITS.nameLength);
  if (!hasLetterOrDigit(text)) throw invalid(error());
  return text;
}

function iban(value: string, error: (problem: string) => string): string {
  const problem = ibanProblem(value);
  if (problem) throw invalid(error(problem));
  return normalizeIban(value);
}

/** A blank BIC counts as none. */
function bic(value: string | null, error: (problem: string) => string): string | null {
  if (value === null || value.trim() === '') return null;
  const problem = bicProblem(value);
  if (problem) throw invalid(error(problem));
  return normalizeBic(value);
}

/** Lines of XML, indented by two spaces a level. */
class XmlLines {
  private readonly lines: string[] = [];
  private depth = 0;

  open(tag: string, attributes = ''): this {
    this.lines.push(`${'  '.repeat(this.depth)}<${tag}${attributes}>`);
    this.depth += 1;
    return this;
  }

  close(tag: string): this {
    this.depth -= 1;
    this.lines.push(`${'  '.repeat(this.depth)}</${tag}>`);
    return this;
  }

  leaf(tag: string, text: string, attributes = ''): this {
    this.lines.push(`${'  '.repeat(this.depth)}<${tag}${attributes}>${xmlText(text)}</${tag}>`);
    return this;
  }

  toString(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

function writeAgent(xml: XmlLines, tag: string, bicfi: string | null): void {
  xml.open(tag).open('FinInstnId');
  if (bicfi) xml.leaf('BICFI', bicfi);
  else xml.open('Othr').leaf('Id', 'NOTPROVIDED').close('Othr');
  xml.close('FinInstnId').close(tag);
}

function writeAccount(xml: XmlLines, tag: string, accountIban: string): void {
  xml.open(tag).open('Id').leaf('IBAN', accountIban).close('Id').close(tag);
}

/**
 * The pain.001.001.09 document (UTF-8, no byte order mark) for the transfers. Names and the
 * remittance are brought into the banks' character set and cut to their lengths (`toSepaText`);
 * ids, dates, accounts and amounts are checked and refused with a German message (`DomainError`
 * 'invalid') rather than altered.
 */
export function writePain001(input: Pain001Input): string {
  if (!isSepaIdentifier(input.messageId)) throw invalid(M.messageId(input.messageId));
  if (!(input.createdAt instanceof Date) || Number.isNaN(input.createdAt.getTime()))
    throw invalid(M.createdAt);
  if (!isIsoDate(input.executionDate)) throw invalid(M.executionDate(input.executionDate));

  const debtorName = name(input.debtor.name, () => M.debtorName);
  const debtorIban = iban(input.debtor.iban, M.debtorIban);
  const debtorBic = bic(input.debtor.bic, M.debtorBic);

  if (input.transfers.length === 0) throw invalid(M.noTransfers);
  const seen = new Set<string>();
  let totalCents = 0;
  const transfers = input.transfers.map((transfer, index) => {
    const id = transfer.endToEndId;
    if (!isSepaIdentifier(id)) throw invalid(M.endToEndId(index, id));
    if (seen.has(id)) throw invalid(M.duplicateEndToEndId(index, id));
    seen.add(id);
    if (transfer.instructionId !== undefined && !isSepaIdentifier(transfer.instructionId))
      throw invalid(M.instructionId(index, id, transfer.instructionId));
    const cents = transfer.amountCents;
    if (!Number.isSafeInteger(cents)) throw invalid(M.amountNotCents(index, id));
    if (cents < 1 || cents > PAIN001_LIMITS.maxAmountCents) throw invalid(M.amountRange(index, id));
    totalCents += cents;
    return {
      endToEndId: id,
      instructionId: transfer.instructionId,
      amountCents: cents,
      creditorName: name(transfer.creditorName, () => M.creditorName(index, id)),
      creditorIban: iban(transfer.creditorIban, (problem) => M.creditorIban(index, id, problem)),
      creditorBic: bic(transfer.creditorBic, (problem) => M.creditorBic(index, id, problem)),
      remittance: toSepaText(transfer.remittance, PAIN001_LIMITS.remittanceLength),
    };
  });
  if (!Number.isSafeInteger(totalCents)) throw invalid(M.controlSum);

  const count = String(transfers.length);
  const controlSum = formatCents(totalCents);
  const xml = new XmlLines();
  xml.open('Document', ` xmlns="${PAIN001_NAMESPACE}"`).open('CstmrCdtTrfInitn');
  xml
    .open('GrpHdr')
    .leaf('MsgId', input.messageId)
    .leaf('CreDtTm', input.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'))
    .leaf('NbOfTxs', count)
    .leaf('CtrlSum', controlSum)
    .open('InitgPty')
    .leaf('Nm', debtorName)
    .close('InitgPty')
    .close('GrpHdr');
  xml
    .open('PmtInf')
    .leaf('PmtInfId', input.messageId)
    .leaf('PmtMtd', 'TRF')
    .leaf('BtchBookg', 'true')
    .leaf('NbOfTxs', count)
    .leaf('CtrlSum', controlSum)
    .open('PmtTpInf')
    .open('SvcLvl')
    .leaf('Cd', 'SEPA')
    .close('SvcLvl')
    .close('PmtTpInf')
    .open('ReqdExctnDt')
    .leaf('Dt', input.executionDate)
    .close('ReqdExctnDt')
    .open('Dbtr')
    .leaf('Nm', debtorName)
    .close('Dbtr');
  writeAccount(xml, 'DbtrAcct', debtorIban);
  writeAgent(xml, 'DbtrAgt', debtorBic);
  xml.leaf('ChrgBr', 'SLEV');
  for (const transfer of transfers) {
    xml.open('CdtTrfTxInf').open('PmtId');
    if (transfer.instructionId !== undefined) xml.leaf('InstrId', transfer.instructionId);
    xml.leaf('EndToEndId', transfer.endToEndId).close('PmtId');
    xml.open('Amt').leaf('InstdAmt', formatCents(transfer.amountCents), ' Ccy="EUR"').close('Amt');
    if (transfer.creditorBic) writeAgent(xml, 'CdtrAgt', transfer.creditorBic);
    xml.open('Cdtr').leaf('Nm', transfer.creditorName).close('Cdtr');
    writeAccount(xml, 'CdtrAcct', transfer.creditorIban);
    if (transfer.remittance !== '') xml.open('RmtInf').leaf('Ustrd', transfer.remittance).close('RmtInf');
    xml.close('CdtTrfTxInf');
  }
  xml.close('PmtInf').close('CstmrCdtTrfInitn').close('Document');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xml.toString()}`;
}
