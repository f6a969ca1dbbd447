const size = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toLocaleString('de-DE', { maximumFractionDigits: 1 })} MB`
    : `${Math.ceil(bytes / 1024).toLocaleString('de-DE')} KB`;

/** German messages of the statement reader: errors shown to the organizer, reasons an entry is skipped. */
export const STATEMENT_MESSAGES = {
  notAStatement: 'Die Datei ist weder ein camt.053/camt.052-Kontoauszug noch ein ZIP-Archiv davon.',
  camt054:
    'Die Datei ist eine camt.054-Buchungsbenachrichtigung. Bitte den Kontoauszug (camt.053) oder den Umsatzbericht (camt.052) hochladen.',
  notAStatementInZip: (name: string) =>
    `Die Datei „${name}“ im ZIP-Archiv ist kein camt.053/camt.052-Kontoauszug.`,
  malformedXml: (line: number, column: number) =>
    `Die XML-Datei ist fehlerhaft (Zeile ${line}, Spalte ${column}) und kann nicht gelesen werden.`,
  malformedXmlIn: (name: string, line: number, column: number) =>
    `Die XML-Datei „${name}“ ist fehlerhaft (Zeile ${line}, Spalte ${column}) und kann nicht gelesen werden.`,
  doctype: 'Die XML-Datei enthält eine DOCTYPE-Deklaration; Kontoauszüge haben keine.',
  unknownEncoding: (encoding: string) =>
    `Die Zeichenkodierung „${encoding}“ der XML-Datei wird nicht unterstützt.`,
  badEncoding: 'Die Datei enthält Zeichen, die nicht zu ihrer Zeichenkodierung passen.',
  missingElement: (what: string, where: string) => `Im Kontoauszug fehlt ${what} (${where}).`,
  badAmount: (value: string, where: string) => `Der Betrag „${value}“ ist keine gültige Zahl (${where}).`,
  badDate: (value: string, where: string) => `Das Datum „${value}“ ist ungültig (${where}).`,
  fileTooLarge: (bytes: number) => `Die Datei ist zu groß (höchstens ${size(bytes)}).`,
  zipTooManyFiles: (max: number) =>
    `Das ZIP-Archiv enthält zu viele Dateien (höchstens ${max.toLocaleString('de-DE')}).`,
  zipEntryTooLarge: (name: string, bytes: number) =>
    `Die Datei „${name}“ im ZIP-Archiv wäre entpackt zu groß (mehr als ${size(bytes)}) und wird nicht geöffnet.`,
  zipTooLarge: (bytes: number) =>
    `Das ZIP-Archiv wäre entpackt zu groß (mehr als ${size(bytes)}) und wird nicht geöffnet.`,
  zipSizeMismatch:
    'Das ZIP-Archiv gibt falsche Größen an (beschädigt oder manipuliert) und wird nicht geöffnet.',
  zipBadName: (name: string) => `Das ZIP-Archiv enthält einen unzulässigen Dateinamen („${name}“).`,
  zipEncrypted: (name: string) => `Die Datei „${name}“ im ZIP-Archiv ist verschlüsselt.`,
  zipUnsupported: (name: string) =>
    `Die Datei „${name}“ im ZIP-Archiv ist mit einem nicht unterstützten Verfahren gepackt.`,
  zipNested: (name: string) =>
    `Die Datei „${name}“ ist selbst ein ZIP-Archiv; bitte die Auszüge direkt packen.`,
  zipBroken: 'Das ZIP-Archiv ist beschädigt und kann nicht gelesen werden.',
  zipEmpty: 'Das ZIP-Archiv enthält keinen Kontoauszug.',
  csvEmpty: 'Die CSV-Datei enthält keine Kopfzeile.',
  csvMissingColumn: (column: string) => `Die Spalte „${column}“ fehlt in der CSV-Datei.`,
  csvBroken: (line: number) => `Die CSV-Datei ist ab Zeile ${line} fehlerhaft und kann nicht gelesen werden.`,
  csvRow: (line: number) => `CSV-Zeile ${line}`,
  skipped: {
    debit: 'Lastschrift/Abbuchung (nur Gutschriften werden zugeordnet)',
    currency: (currency: string) => `Fremdwährung ${currency} (nur Euro wird zugeordnet)`,
    notBooked: (status: string) =>
      status === 'PDNG'
        ? 'Vorgemerkt, noch nicht gebucht'
        : status === 'INFO'
          ? 'Nur zur Information, nicht gebucht'
          : `Nicht gebucht (Status ${status || 'fehlt'})`,
    reversal: 'Storno einer früheren Buchung',
    subCent: 'Betrag mit Bruchteilen eines Cents',
    zero: 'Betrag 0,00 €',
  },
} as const;
