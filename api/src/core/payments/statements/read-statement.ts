import { DomainError } from '../../errors.js';
import { readCamt } from './camt.js';
import type { CamtRead } from './camt.js';
import { readCsv } from './csv.js';
import type { CsvMapping } from './csv.js';
import { sha256Hex } from './identity.js';
import { STATEMENT_MESSAGES as M } from './messages.js';
import type { StatementRead } from './types.js';
import { ZIP_LIMITS, isZip, readZip } from './zip.js';
import type { ZipLimits } from './zip.js';

/** The largest file taken: one XML, one CSV or the ZIP archive itself. */
export const MAX_STATEMENT_FILE_BYTES = 32 * 1024 * 1024;

/** XML by its first character after a byte order mark and white space (UTF-16 by its mark). */
function looksLikeXml(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)
  )
    i++;
  return bytes[i] === 0x3c;
}

function checkSize(bytes: Uint8Array) {
  if (bytes.byteLength > MAX_STATEMENT_FILE_BYTES) {
    throw new DomainError('too_large', M.fileTooLarge(MAX_STATEMENT_FILE_BYTES));
  }
}

/** Puts documents together; a line met twice (same identity, e.g. one statement in two files) counts once. */
function combine(
  fileSha256: string,
  container: StatementRead['container'],
  reads: CamtRead[],
): StatementRead {
  const result: StatementRead = {
    fileSha256,
    container,
    documents: [],
    candidates: [],
    skipped: [],
    duplicates: 0,
  };
  const seen = new Set<string>();
  const fresh = (identity: string) => {
    if (seen.has(identity)) {
      result.duplicates++;
      return false;
    }
    seen.add(identity);
    return true;
  };
  for (const read of reads) {
    result.documents.push(read.document);
    result.candidates.push(...read.candidates.filter((c) => fresh(c.identity)));
    result.skipped.push(...read.skipped.filter((s) => fresh(s.identity)));
  }
  return result;
}

/**
 * Reads a bank statement file: one camt.053/camt.052 XML document or a ZIP archive of several
 * (any mix), recognized by content, not by name. German errors for anything else.
 */
export async function readStatementFile(
  bytes: Uint8Array,
  options: { zipLimits?: ZipLimits } = {},
): Promise<StatementRead> {
  checkSize(bytes);
  const fileSha256 = sha256Hex(bytes);
  if (isZip(bytes)) {
    const members = (await readZip(bytes, options.zipLimits ?? ZIP_LIMITS)).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    const reads = members.map((member) => {
      if (isZip(member.bytes)) throw new DomainError('unsupported_media_type', M.zipNested(member.name));
      if (!looksLikeXml(member.bytes)) {
        throw new DomainError('unsupported_media_type', M.notAStatementInZip(member.name));
      }
      return readCamt(member.bytes, member.name, sha256Hex(member.bytes));
    });
    return combine(fileSha256, 'zip', reads);
  }
  if (looksLikeXml(bytes)) return combine(fileSha256, 'xml', [readCamt(bytes, null, fileSha256)]);
  throw new DomainError('unsupported_media_type', M.notAStatement);
}

/** Reads a bank's CSV export by a column mapping (see `CSV_PRESETS`): the fallback where no camt is at hand. */
export function readCsvStatement(bytes: Uint8Array, mapping: CsvMapping): StatementRead {
  checkSize(bytes);
  const fileSha256 = sha256Hex(bytes);
  return combine(fileSha256, 'csv', [readCsv(bytes, mapping, fileSha256)]);
}
