import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ZipArchive } from 'archiver';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors.js';
import { STATEMENT_MESSAGES as M, ZIP_LIMITS, readStatementFile } from './index.js';
import type { ZipLimits } from './index.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function zipOf(files: { name: string; data: Buffer | string }[]): Promise<Buffer> {
  const archive = new ZipArchive({ zlib: { level: 9 } });
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => archive.on('end', resolve));
  for (const file of files) archive.append(file.data, { name: file.name });
  await archive.finalize();
  await ended;
  return Buffer.concat(chunks);
}

/** Replaces bytes of the same length wherever they occur (an archive's local and central headers). */
function patch(zip: Buffer, from: string, to: string): Buffer {
  const copy = Buffer.from(zip);
  for (let at = copy.indexOf(from); at >= 0; at = copy.indexOf(from, at + 1)) copy.write(to, at, 'latin1');
  return copy;
}

/** Sets the uncompressed size the central directory declares for every entry. */
function declareSize(zip: Buffer, size: number): Buffer {
  const copy = Buffer.from(zip);
  const end = copy.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = copy.readUInt32LE(end + 16);
  while (copy.readUInt32LE(at) === 0x02014b50) {
    copy.writeUInt32LE(size, at + 24);
    at += 46 + copy.readUInt16LE(at + 28) + copy.readUInt16LE(at + 30) + copy.readUInt16LE(at + 32);
  }
  return copy;
}

async function refusal(bytes: Buffer, zipLimits?: ZipLimits): Promise<DomainError> {
  const error = await readStatementFile(bytes, { zipLimits }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('ZIP archives of statements', () => {
  it('reads a ZIP of a camt.053 and a camt.052 file like the two files alone', async () => {
    const statement = fixture('viafintech-camt053-v02.xml');
    const report = fixture('viafintech-camt052-v02.xml');
    const zip = await zipOf([
      { name: 'camt053/2013-12-27.xml', data: statement },
      { name: 'camt052/2013-12-27.xml', data: report },
    ]);
    const result = await readStatementFile(zip);
    expect(result.container).toBe('zip');
    expect(result.fileSha256).toBe(sha256(zip));
    // In the order of their names.
    expect(result.documents.map((d) => [d.name, d.format, d.sha256])).toEqual([
      ['camt052/2013-12-27.xml', 'camt.052', sha256(report)],
      ['camt053/2013-12-27.xml', 'camt.053', sha256(statement)],
    ]);
    const alone = [
      ...(await readStatementFile(report)).candidates,
      ...(await readStatementFile(statement)).candidates,
    ];
    expect(result.candidates.map((c) => [c.identity, c.amountCents])).toEqual(
      alone.map((c) => [c.identity, c.amountCents]),
    );
    expect(result.candidates[0]!.origin).toMatchObject({ document: 'camt052/2013-12-27.xml' });
    expect(result.skipped).toHaveLength(3);

    const again = await readStatementFile(Buffer.from(zip));
    expect(again.fileSha256).toBe(result.fileSha256);
    expect(again.candidates.map((c) => c.identity)).toEqual(result.candidates.map((c) => c.identity));
  });

  it('counts a statement delivered twice in one archive once', async () => {
    const statement = fixture('generated-camt053-v08-club.xml');
    const zip = await zipOf([
      { name: 'a.xml', data: statement },
      { name: 'b.xml', data: statement },
    ]);
    const result = await readStatementFile(zip);
    expect(result.documents).toHaveLength(2);
    expect(result.candidates).toHaveLength(8);
    expect(result.skipped).toHaveLength(4);
    expect(result.duplicates).toBe(12);
  });

  it("passes over folders, macOS' copies and hidden files", async () => {
    const zip = await zipOf([
      { name: 'auszuege/', data: '' },
      { name: '__MACOSX/auszuege/._a.xml', data: 'junk' },
      { name: 'auszuege/.DS_Store', data: 'junk' },
      { name: 'auszuege/a.xml', data: fixture('genkgo-camt053-v08.xml') },
    ]);
    expect((await readStatementFile(zip)).documents.map((d) => d.name)).toEqual(['auszuege/a.xml']);
    expect((await refusal(await zipOf([{ name: '.hidden.xml', data: '<a/>' }]))).message).toBe(M.zipEmpty);
  });

  it('refuses a zip bomb by the size it declares, before inflating it', async () => {
    const bomb = await zipOf([
      { name: 'auszug.xml', data: Buffer.alloc(ZIP_LIMITS.maxEntryBytes + 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(100_000);
    const error = await refusal(bomb);
    expect(error.code).toBe('too_large');
    expect(error.message).toBe(
      'Die Datei „auszug.xml“ im ZIP-Archiv wäre entpackt zu groß (mehr als 32 MB) und wird nicht geöffnet.',
    );
  });

  it('refuses a zip bomb whose header understates its size, while inflating it', async () => {
    const bomb = declareSize(
      await zipOf([{ name: 'auszug.xml', data: Buffer.alloc(8 * 1024 * 1024) }]),
      1000,
    );
    const error = await refusal(bomb);
    expect(error.code).toBe('invalid');
    expect(error.message).toBe(
      'Das ZIP-Archiv gibt falsche Größen an (beschädigt oder manipuliert) und wird nicht geöffnet.',
    );
  });

  it('refuses many files and many bytes together', async () => {
    const files = ['a', 'b', 'c'].map((name) => ({
      name: `${name}.xml`,
      data: fixture('genkgo-camt053-v08.xml'),
    }));
    const zip = await zipOf(files);
    expect((await refusal(zip, { ...ZIP_LIMITS, maxEntries: 2 })).message).toBe(
      'Das ZIP-Archiv enthält zu viele Dateien (höchstens 2).',
    );
    expect((await refusal(zip, { ...ZIP_LIMITS, maxTotalBytes: 20_000 })).message).toBe(
      'Das ZIP-Archiv wäre entpackt zu groß (mehr als 20 KB) und wird nicht geöffnet.',
    );
  });

  it('refuses names that leave the archive', async () => {
    const zip = await zipOf([{ name: 'xx/evil.xml', data: fixture('genkgo-camt053-v08.xml') }]);
    expect((await refusal(patch(zip, 'xx/evil.xml', '../evil.xml'))).message).toBe(
      'Das ZIP-Archiv enthält einen unzulässigen Dateinamen („../evil.xml“).',
    );
    expect((await refusal(patch(zip, 'xx/evil.xml', 'C:/evil.xml'))).message).toBe(
      'Das ZIP-Archiv enthält einen unzulässigen Dateinamen („C:/evil.xml“).',
    );
  });

  it('refuses what is not a statement inside, an archive inside, and a broken archive', async () => {
    const inner = await zipOf([{ name: 'a.xml', data: fixture('genkgo-camt053-v08.xml') }]);
    expect((await refusal(await zipOf([{ name: 'inner.zip', data: inner }]))).message).toBe(
      M.zipNested('inner.zip'),
    );
    expect((await refusal(await zipOf([{ name: 'auszug.pdf', data: '%PDF-1.7' }]))).message).toBe(
      'Die Datei „auszug.pdf“ im ZIP-Archiv ist kein camt.053/camt.052-Kontoauszug.',
    );
    expect((await refusal(await zipOf([{ name: 'liste.xml', data: '<Liste/>' }]))).message).toBe(
      M.notAStatementInZip('liste.xml'),
    );
    const broken = await zipOf([{ name: 'kaputt.xml', data: '<Document><BkToCstmrStmt>' }]);
    expect((await refusal(broken)).message).toMatch(
      /^Die XML-Datei „kaputt\.xml“ ist fehlerhaft \(Zeile 1, Spalte \d+\)/,
    );
    expect((await refusal(inner.subarray(0, inner.length - 30))).message).toBe(M.zipBroken);
  });
});
