/** German messages of the SEPA credit transfer writer: why a refund file cannot be written. */
const IDENTIFIER_RULE =
  "1 bis 35 Zeichen aus A–Z, a–z, 0–9 und / ? : ( ) . , ' + -, ohne Leerzeichen, ohne „//“ und nicht mit „/“ am Anfang oder Ende";

const transfer = (index: number, endToEndId: string) => `Überweisung ${index + 1} („${endToEndId}“)`;

export const SEPA_MESSAGES = {
  messageId: (value: string) => `Die Nachrichten-ID „${value}“ ist ungültig: ${IDENTIFIER_RULE}.`,
  createdAt: 'Der Erstellungszeitpunkt der SEPA-Datei ist ungültig.',
  executionDate: (value: string) =>
    `Das Ausführungsdatum „${value}“ ist ungültig: Erwartet wird ein Datum der Form JJJJ-MM-TT.`,
  noTransfers: 'Die SEPA-Datei enthält keine Überweisung.',
  debtorName:
    'Der Name des Auftraggebers fehlt oder enthält keinen Buchstaben und keine Ziffer, die im SEPA-Zahlungsverkehr zulässig sind.',
  debtorIban: (problem: string) => `Konto des Auftraggebers: ${problem}`,
  debtorBic: (problem: string) => `Konto des Auftraggebers: ${problem}`,
  endToEndId: (index: number, value: string) =>
    `Überweisung ${index + 1}: Die Ende-zu-Ende-Referenz „${value}“ ist ungültig: ${IDENTIFIER_RULE}.`,
  duplicateEndToEndId: (index: number, value: string) =>
    `Überweisung ${index + 1}: Die Ende-zu-Ende-Referenz „${value}“ kommt in der Datei mehrfach vor.`,
  instructionId: (index: number, endToEndId: string, value: string) =>
    `${transfer(index, endToEndId)}: Die Auftragsreferenz „${value}“ ist ungültig: ${IDENTIFIER_RULE}.`,
  amountNotCents: (index: number, endToEndId: string) =>
    `${transfer(index, endToEndId)}: Der Betrag ist kein ganzzahliger Betrag in Cent.`,
  amountRange: (index: number, endToEndId: string) =>
    `${transfer(index, endToEndId)}: Der Betrag muss zwischen 0,01 € und 999.999.999,99 € liegen.`,
  creditorName: (index: number, endToEndId: string) =>
    `${transfer(index, endToEndId)}: Der Name des Zahlungsempfängers fehlt oder enthält keinen Buchstaben und keine Ziffer, die im SEPA-Zahlungsverkehr zulässig sind.`,
  creditorIban: (index: number, endToEndId: string, problem: string) =>
    `${transfer(index, endToEndId)}, Konto des Zahlungsempfängers: ${problem}`,
  creditorBic: (index: number, endToEndId: string, problem: string) =>
    `${transfer(index, endToEndId)}, Konto des Zahlungsempfängers: ${problem}`,
  controlSum: 'Die Summe der Überweisungen ist zu groß für eine SEPA-Datei.',
} as const;
