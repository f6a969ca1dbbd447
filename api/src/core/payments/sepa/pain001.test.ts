import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BANK_ACCOUNT_MESSAGES } from '@schlosstreffen/shared';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPromise } from 'yauzl';
import { DomainError } from '../../errors.js';
import {
  PAIN001_NAMESPACE,
  SEPA_MESSAGES as M,
  isSepaIdentifier,
  toSepaText,
  writePain001,
  type Pain001Input,
  type Pain001Transfer,
} from './index.js';

/** An element of the written document: local name, namespace, attributes, own text, children. */
interface Node {
  name: string;
  uri: string;
  attributes: Record<string, string>;
  text: string;
  children: Node[];
}

function parse(xml: string): Node {
  const parser = new SaxesParser({ xmlns: true });
  const stack: Node[] = [];
  let root: Node | undefined;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const attributes: Record<string, string> = {};
    for (const attribute of Object.values(tag.attributes)) attributes[attribute.local] = attribute.value;
    const node: Node = { name: tag.local, uri: tag.uri, attributes, text: '', children: [] };
    stack.at(-1)?.children.push(node);
    root ??= node;
    stack.push(node);
  });
  parser.on('text', (text) => {
    const node = stack.at(-1);
    if (node) node.text += text;
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  return root!;
}

/** The children named `name` of every node, in document order. */
const childrenOf = (nodes: Node[], name: string) =>
  nodes.flatMap((node) => node.children.filter((child) => child.name === name));

/** Every node at a path of names below the root ('PmtInf/CdtTrfTxInf/Amt/InstdAmt'). */
const all = (root: Node, pathNames: string) =>
  pathNames.split('/').reduce((nodes, name) => childrenOf(nodes, name), [root]);

/** The texts at a path. */
const texts = (root: Node, pathNames: string) => all(root, pathNames).map((node) => node.text);

/** The text of the one node at a path. */
function text(root: Node, pathNames: string): string {
  const nodes = all(root, pathNames);
  expect(nodes, pathNames).toHaveLength(1);
  return nodes[0]!.text;
}

const ROOT = 'CstmrCdtTrfInitn';
const TX = `${ROOT}/PmtInf/CdtTrfTxInf`;

const transfer = (overrides: Partial<Pain001Transfer> = {}): Pain001Transfer => ({
  endToEndId: 'ST-2025-R0001',
  amountCents: 2500,
  creditorName: 'Max Mustermann',
  creditorIban: 'DE02 1203 0000 0000 2020 51',
  creditorBic: 'BYLADEM1001',
  remittance: 'Erstattung Teilnahmegebuehr Schlosstreffen 2025',
  ...overrides,
});

const input = (overrides: Partial<Pain001Input> = {}): Pain001Input => ({
  messageId: 'ST-REFUND-2025-0001',
  createdAt: new Date('2025-06-02T08:15:42.123Z'),
  executionDate: '2025-06-03',
  debtor: { name: 'Schlosstreffen e.V.', iban: 'de89 3704 0044 0532 0130 00', bic: 'cobadeffxxx' },
  transfers: [transfer()],
  ...overrides,
});

function refusal(value: Pain001Input): DomainError {
  let error: unknown;
  try {
    writePain001(value);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe('invalid');
  return error as DomainError;
}

describe('writePain001: the document', () => {
  it('writes group header, payment information and transactions as the German banks take them', () => {
    const xml = writePain001(
      input({
        transfers: [
          transfer({ endToEndId: 'ST-2025-R0001', amountCents: 2500, instructionId: 'INSTR-1' }),
          transfer({
            endToEndId: 'ST-2025-R0002',
            amountCents: 1,
            creditorName: 'Erika Musterfrau',
            creditorIban: 'AT61 1904 3002 3457 3201',
            creditorBic: null,
            remittance: 'Erstattung R0002',
          }),
          transfer({ endToEndId: 'ST-2025-R0003', amountCents: 99_999_999_999, creditorBic: 'BYLADEM1' }),
        ],
      }),
    );
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Document ')).toBe(true);
    const doc = parse(xml);
    expect(doc.name).toBe('Document');
    expect(doc.uri).toBe(PAIN001_NAMESPACE);
    expect(PAIN001_NAMESPACE).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');

    expect(text(doc, `${ROOT}/GrpHdr/MsgId`)).toBe('ST-REFUND-2025-0001');
    expect(text(doc, `${ROOT}/GrpHdr/CreDtTm`)).toBe('2025-06-02T08:15:42Z');
    expect(text(doc, `${ROOT}/GrpHdr/NbOfTxs`)).toBe('3');
    expect(text(doc, `${ROOT}/GrpHdr/CtrlSum`)).toBe('1000000025.00');
    expect(text(doc, `${ROOT}/GrpHdr/InitgPty/Nm`)).toBe('Schlosstreffen e.V.');

    expect(all(doc, `${ROOT}/PmtInf`)).toHaveLength(1);
    expect(text(doc, `${ROOT}/PmtInf/PmtInfId`)).toBe('ST-REFUND-2025-0001');
    expect(text(doc, `${ROOT}/PmtInf/PmtMtd`)).toBe('TRF');
    expect(text(doc, `${ROOT}/PmtInf/BtchBookg`)).toBe('true');
    expect(text(doc, `${ROOT}/PmtInf/NbOfTxs`)).toBe('3');
    expect(text(doc, `${ROOT}/PmtInf/CtrlSum`)).toBe('1000000025.00');
    expect(text(doc, `${ROOT}/PmtInf/PmtTpInf/SvcLvl/Cd`)).toBe('SEPA');
    expect(text(doc, `${ROOT}/PmtInf/ReqdExctnDt/Dt`)).toBe('2025-06-03');
    expect(text(doc, `${ROOT}/PmtInf/Dbtr/Nm`)).toBe('Schlosstreffen e.V.');
    expect(text(doc, `${ROOT}/PmtInf/DbtrAcct/Id/IBAN`)).toBe('DE89370400440532013000');
    expect(text(doc, `${ROOT}/PmtInf/DbtrAgt/FinInstnId/BICFI`)).toBe('COBADEFFXXX');
    expect(text(doc, `${ROOT}/PmtInf/ChrgBr`)).toBe('SLEV');

    expect(texts(doc, `${TX}/PmtId/EndToEndId`)).toEqual(['ST-2025-R0001', 'ST-2025-R0002', 'ST-2025-R0003']);
    // Only where given.
    expect(texts(doc, `${TX}/PmtId/InstrId`)).toEqual(['INSTR-1']);
    expect(texts(doc, `${TX}/Amt/InstdAmt`)).toEqual(['25.00', '0.01', '999999999.99']);
    expect(all(doc, `${TX}/Amt/InstdAmt`).map((node) => node.attributes.Ccy)).toEqual(['EUR', 'EUR', 'EUR']);
    // The creditor's bank only where its BIC is known.
    expect(texts(doc, `${TX}/CdtrAgt/FinInstnId/BICFI`)).toEqual(['BYLADEM1001', 'BYLADEM1']);
    expect(all(doc, `${TX}`)[1]!.children.map((child) => child.name)).toEqual([
      'PmtId',
      'Amt',
      'Cdtr',
      'CdtrAcct',
      'RmtInf',
    ]);
    expect(texts(doc, `${TX}/Cdtr/Nm`)).toEqual(['Max Mustermann', 'Erika Musterfrau', 'Max Mustermann']);
    expect(texts(doc, `${TX}/CdtrAcct/Id/IBAN`)).toEqual([
      'DE02120300000000202051',
      'AT611904300234573201',
      'DE02120300000000202051',
    ]);
    expect(texts(doc, `${TX}/RmtInf/Ustrd`)).toEqual([
      'Erstattung Teilnahmegebuehr Schlosstreffen 2025',
      'Erstattung R0002',
      'Erstattung Teilnahmegebuehr Schlosstreffen 2025',
    ]);
  });

  it('sums the amounts as integer cents, without the rounding errors of floating point', () => {
    // 0.10 + 0.20 is 0.30000000000000004 in floating point; 3 × 333.33 adds up to 999.99.
    const amounts = [10, 20, 33_333, 33_333, 33_333, 5, 99_999_999_999];
    const xml = writePain001(
      input({
        transfers: amounts.map((amountCents, i) => transfer({ endToEndId: `R-${i}`, amountCents })),
      }),
    );
    const doc = parse(xml);
    expect(texts(doc, `${TX}/Amt/InstdAmt`)).toEqual([
      '0.10',
      '0.20',
      '333.33',
      '333.33',
      '333.33',
      '0.05',
      '999999999.99',
    ]);
    expect(text(doc, `${ROOT}/GrpHdr/CtrlSum`)).toBe('1000001000.33');
    expect(text(doc, `${ROOT}/GrpHdr/NbOfTxs`)).toBe('7');
  });

  it('names no debtor BIC as NOTPROVIDED, and a blank one likewise', () => {
    for (const bic of [null, '  ']) {
      const doc = parse(writePain001(input({ debtor: { ...input().debtor, bic } })));
      expect(all(doc, `${ROOT}/PmtInf/DbtrAgt/FinInstnId/BICFI`)).toHaveLength(0);
      expect(text(doc, `${ROOT}/PmtInf/DbtrAgt/FinInstnId/Othr/Id`)).toBe('NOTPROVIDED');
    }
  });

  it('escapes & and leaves no < or > of a name in the markup', () => {
    const xml = writePain001(
      input({
        debtor: { ...input().debtor, name: 'Schloss & Co <Tuning>' },
        transfers: [transfer({ creditorName: 'Müller & Söhne </Nm><Nm>', remittance: 'A&B <b>fett</b>' })],
      }),
    );
    expect(xml).toContain('<Nm>Schloss &amp; Co .Tuning.</Nm>');
    expect(xml).toContain('<Nm>Müller &amp; Söhne ./Nm..Nm.</Nm>');
    expect(xml).toContain('<Ustrd>A&amp;B .b.fett./b.</Ustrd>');
    const doc = parse(xml);
    expect(text(doc, `${ROOT}/GrpHdr/InitgPty/Nm`)).toBe('Schloss & Co .Tuning.');
    expect(texts(doc, `${TX}/Cdtr/Nm`)).toEqual(['Müller & Söhne ./Nm..Nm.']);
    expect(texts(doc, `${TX}/RmtInf/Ustrd`)).toEqual(['A&B .b.fett./b.']);
  });

  it('keeps umlauts, ß and &, strips other accents and replaces what the banks do not take', () => {
    const doc = parse(
      writePain001(
        input({
          transfers: [
            transfer({
              // 'Zoë' with a combining diaeresis, 'Jürgen' composed of u + U+0308.
              creditorName: 'Zoe\u0308 Łukasz-Weiß, Ju\u0308rgen Ørsted & José Núñez',
              remittance: 'Rückzahlung „Startgebühr“ – 25 €;\tStartnr. #12\n_Erstattung_ 🚗 [2025]\u00ad',
            }),
          ],
        }),
      ),
    );
    expect(texts(doc, `${TX}/Cdtr/Nm`)).toEqual(['Zoe Lukasz-Weiß, Jürgen Orsted & Jose Nunez']);
    expect(texts(doc, `${TX}/RmtInf/Ustrd`)).toEqual([
      "Rückzahlung 'Startgebühr' - 25 EUR, Startnr. .12 -Erstattung- . (2025)",
    ]);
  });

  it('cuts names to 70 and the remittance to 140 characters', () => {
    const longName = `${'Ä'.repeat(65)} Bernd Beispiel`;
    const doc = parse(
      writePain001(
        input({
          debtor: { ...input().debtor, name: 'V'.repeat(200) },
          transfers: [
            transfer({ creditorName: longName, remittance: `${'x'.repeat(139)} y${'z'.repeat(50)}` }),
          ],
        }),
      ),
    );
    expect(text(doc, `${ROOT}/GrpHdr/InitgPty/Nm`)).toBe('V'.repeat(70));
    expect(text(doc, `${ROOT}/PmtInf/Dbtr/Nm`)).toBe('V'.repeat(70));
    // 65 umlauts, a space and 'Bern': 70 characters, whatever their bytes in UTF-8.
    expect(texts(doc, `${TX}/Cdtr/Nm`)).toEqual([`${'Ä'.repeat(65)} Bern`]);
    // Cut after the space: no trailing blank.
    expect(texts(doc, `${TX}/RmtInf/Ustrd`)).toEqual(['x'.repeat(139)]);
  });

  it('leaves the remittance out when nothing of it is left', () => {
    const doc = parse(writePain001(input({ transfers: [transfer({ remittance: ' \n\t\u200b ' })] })));
    expect(all(doc, `${TX}/RmtInf`)).toHaveLength(0);
  });
});

describe('toSepaText and isSepaIdentifier', () => {
  it('maps characters one by one', () => {
    expect(toSepaText('Ａｕｔｏ ﬁt', 70)).toBe('Auto fit');
    expect(toSepaText('Straße ẞ Æon œuvre Þór', 70)).toBe('Straße SS AEon oeuvre Thor');
    expect(toSepaText('Иван', 70)).toBe('....');
    expect(toSepaText("  a:b?c(d)e.f,g'h+i/j-k  ", 70)).toBe("a:b?c(d)e.f,g'h+i/j-k");
    expect(toSepaText('a\u00a0\u2009 b\r\nc', 70)).toBe('a b c');
  });

  it('accepts references of the Latin set only, without spaces and without // or / at the ends', () => {
    for (const id of ['A', 'R-2025/17', "a:b?c(d)e.f,g'h+i", 'x'.repeat(35)])
      expect(isSepaIdentifier(id)).toBe(true);
    for (const id of ['', 'R 17', 'R_17', 'Rü', 'x'.repeat(36), '/R17', 'R17/', 'R//17', 'R&17'])
      expect(isSepaIdentifier(id), id).toBe(false);
  });
});

describe('writePain001: refusals in German', () => {
  it('refuses an empty transfer list', () => {
    expect(refusal(input({ transfers: [] })).message).toBe('Die SEPA-Datei enthält keine Überweisung.');
  });

  it('refuses amounts that are not 0.01 € to 999,999,999.99 € in whole cents', () => {
    for (const amountCents of [0, -100, 100_000_000_000]) {
      expect(refusal(input({ transfers: [transfer({ amountCents })] })).message).toBe(
        'Überweisung 1 („ST-2025-R0001“): Der Betrag muss zwischen 0,01 € und 999.999.999,99 € liegen.',
      );
    }
    for (const amountCents of [25.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(refusal(input({ transfers: [transfer({ amountCents })] })).message).toBe(
        M.amountNotCents(0, 'ST-2025-R0001'),
      );
    }
    expect(M.amountNotCents(0, 'X')).toBe(
      'Überweisung 1 („X“): Der Betrag ist kein ganzzahliger Betrag in Cent.',
    );
  });

  it('refuses invalid IBANs and BICs with the shared German messages', () => {
    expect(
      refusal(
        input({
          transfers: [transfer(), transfer({ endToEndId: 'R2', creditorIban: 'DE02120300000000202052' })],
        }),
      ).message,
    ).toBe(`Überweisung 2 („R2“), Konto des Zahlungsempfängers: ${BANK_ACCOUNT_MESSAGES.ibanChecksum}`);
    expect(refusal(input({ transfers: [transfer({ creditorIban: 'US12 3456 7890' })] })).message).toBe(
      `Überweisung 1 („ST-2025-R0001“), Konto des Zahlungsempfängers: ${BANK_ACCOUNT_MESSAGES.ibanCountry('US')}`,
    );
    expect(refusal(input({ transfers: [transfer({ creditorBic: 'BYLADEM10' })] })).message).toBe(
      `Überweisung 1 („ST-2025-R0001“), Konto des Zahlungsempfängers: ${BANK_ACCOUNT_MESSAGES.bicLength}`,
    );
    expect(refusal(input({ debtor: { ...input().debtor, iban: 'DE89 3704 0044 0532 0130' } })).message).toBe(
      `Konto des Auftraggebers: ${BANK_ACCOUNT_MESSAGES.ibanTooShort('Deutschland', 20, 22)}`,
    );
    expect(refusal(input({ debtor: { ...input().debtor, bic: '1OBADEFF' } })).message).toBe(
      `Konto des Auftraggebers: ${BANK_ACCOUNT_MESSAGES.bicFormat}`,
    );
  });

  it('refuses ids it would have to alter, and an end-to-end id used twice', () => {
    expect(refusal(input({ messageId: 'x'.repeat(36) })).message).toBe(
      `Die Nachrichten-ID „${'x'.repeat(36)}“ ist ungültig: 1 bis 35 Zeichen aus A–Z, a–z, 0–9 und / ? : ( ) . , ' + -, ohne Leerzeichen, ohne „//“ und nicht mit „/“ am Anfang oder Ende.`,
    );
    expect(refusal(input({ transfers: [transfer({ endToEndId: 'R 1' })] })).message).toBe(
      M.endToEndId(0, 'R 1'),
    );
    expect(M.endToEndId(0, 'R 1')).toMatch(/^Überweisung 1: Die Ende-zu-Ende-Referenz „R 1“ ist ungültig: /);
    expect(refusal(input({ transfers: [transfer({ instructionId: 'Anweisung Nr. 1' })] })).message).toBe(
      M.instructionId(0, 'ST-2025-R0001', 'Anweisung Nr. 1'),
    );
    expect(refusal(input({ transfers: [transfer(), transfer({ amountCents: 100 })] })).message).toBe(
      'Überweisung 2: Die Ende-zu-Ende-Referenz „ST-2025-R0001“ kommt in der Datei mehrfach vor.',
    );
  });

  it('refuses names with nothing readable left, bad dates and an invalid creation time', () => {
    expect(refusal(input({ debtor: { ...input().debtor, name: '   ' } })).message).toBe(M.debtorName);
    expect(M.debtorName).toMatch(/^Der Name des Auftraggebers fehlt/);
    expect(refusal(input({ transfers: [transfer({ creditorName: '🚗🚗' })] })).message).toBe(
      'Überweisung 1 („ST-2025-R0001“): Der Name des Zahlungsempfängers fehlt oder enthält keinen Buchstaben und keine Ziffer, die im SEPA-Zahlungsverkehr zulässig sind.',
    );
    for (const executionDate of ['2025-02-30', '03.06.2025', '2025-6-3', '']) {
      expect(refusal(input({ executionDate })).message).toBe(
        `Das Ausführungsdatum „${executionDate}“ ist ungültig: Erwartet wird ein Datum der Form JJJJ-MM-TT.`,
      );
    }
    expect(refusal(input({ createdAt: new Date(Number.NaN) })).message).toBe(
      'Der Erstellungszeitpunkt der SEPA-Datei ist ungültig.',
    );
  });
});

/**
 * The official schema: Debian's package libhbci4j-core-java ships it inside
 * /usr/share/java/hbci4j-core.jar, as pain.001.001.09.xsd at the jar's root (the ISO 20022 schema
 * of 2019, which hbci4j itself validates with). xmllint (Debian's libxml2-utils) validates against it.
 */
const HBCI4J_JAR = '/usr/share/java/hbci4j-core.jar';
const XSD_NAME = 'pain.001.001.09.xsd';

describe('writePain001: validation against the pain.001.001.09 XSD', () => {
  let dir: string;
  let xsd: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pain001-'));
    xsd = path.join(dir, XSD_NAME);
    const zip = await openPromise(HBCI4J_JAR, { lazyEntries: true, autoClose: false }).catch(
      (error: unknown) => {
        throw new Error(`${HBCI4J_JAR} is missing: install Debian's libhbci4j-core-java`, { cause: error });
      },
    );
    try {
      let found = false;
      for await (const entry of zip.eachEntry()) {
        if (entry.fileName !== XSD_NAME) continue;
        await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(xsd));
        found = true;
        break;
      }
      if (!found) throw new Error(`${XSD_NAME} not found in ${HBCI4J_JAR}`);
    } finally {
      zip.close();
    }
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  let files = 0;
  async function validate(xml: string): Promise<{ code: number; output: string }> {
    files += 1;
    const file = path.join(dir, `file-${files}.xml`);
    await writeFile(file, xml);
    return new Promise((resolve, reject) => {
      execFile('xmllint', ['--noout', '--schema', xsd, file], (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error("xmllint could not run: install Debian's libxml2-utils", { cause: error }));
          return;
        }
        resolve({ code: error ? Number(error.code) : 0, output: `${stdout}${stderr}` });
      });
    });
  }

  const full = () =>
    writePain001(
      input({
        debtor: { name: 'Schlosstreffen e.V. & Freunde', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
        transfers: [
          transfer({
            instructionId: 'I-1',
            creditorName: 'Jürgen Weiß & Zoë <Ölmühle>',
            remittance: 'é'.repeat(300),
          }),
          transfer({
            endToEndId: 'R2',
            amountCents: 99_999_999_999,
            creditorBic: 'BYLADEM1',
            remittance: '',
          }),
          transfer({
            endToEndId: 'R3',
            amountCents: 1,
            creditorIban: 'AT611904300234573201',
            creditorBic: null,
          }),
        ],
      }),
    );

  it('validates a file with every optional part and one without BICs', async () => {
    const withAll = await validate(full());
    expect(withAll, withAll.output).toEqual({ code: 0, output: expect.stringContaining('validates') });
    const noBic = await validate(
      writePain001(
        input({
          debtor: { ...input().debtor, bic: null },
          transfers: [transfer({ creditorBic: null }), transfer({ endToEndId: 'R2', creditorBic: null })],
        }),
      ),
    );
    expect(noBic, noBic.output).toEqual({ code: 0, output: expect.stringContaining('validates') });
  });

  it('validates a file of 500 transfers', async () => {
    const transfers = Array.from({ length: 500 }, (_, i) =>
      transfer({ endToEndId: `ST-2025-R${String(i).padStart(4, '0')}`, amountCents: 1 + i * 997 }),
    );
    const result = await validate(writePain001(input({ transfers })));
    expect(result, result.output).toEqual({ code: 0, output: expect.stringContaining('validates') });
  });

  // The check can fail: files broken by hand are refused. (Three decimals would pass: the ISO
  // schema allows five; the writer's two are checked above.)
  it.each([
    ['without Dbtr', (xml: string) => xml.replace(/<Dbtr>[\s\S]*?<\/Dbtr>\s*/, ''), 'DbtrAcct'],
    ['with six decimals', (xml: string) => xml.replace('>25.00<', '>25.000001<'), 'fractionDigits'],
    ['with a lower-case currency', (xml: string) => xml.replace('Ccy="EUR"', 'Ccy="eur"'), 'Ccy'],
    ['with a remittance of 141 characters', (xml: string) => xml.replace(/<Ustrd>/, '<Ustrd>x'), 'maxLength'],
    [
      'with a lower-case IBAN',
      (xml: string) => xml.replace('DE89370400440532013000', 'de89370400440532013000'),
      'IBAN',
    ],
  ])('refuses a file %s', async (_, breakIt, complaint) => {
    const xml = full();
    const broken = breakIt(xml);
    expect(broken).not.toBe(xml);
    const result = await validate(broken);
    expect(result.code, result.output).toBe(3);
    expect(result.output).toContain('fails to validate');
    expect(result.output).toContain(complaint);
  });
});
