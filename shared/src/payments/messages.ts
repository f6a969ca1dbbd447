/** German texts of the payments: the organizers' screen 'Zahlungen', the gate's till, the owner's card. */
export const PAYMENT_MESSAGES = {
  noFee: (year: number) => `Für ${year} ist keine Teilnahmegebühr eingerichtet.`,
  noPayment: 'Für dieses Fahrzeug ist kein Startgeld offen.',
  unknownPayment: 'Diese Zahlung gibt es nicht.',
  unknownEntry: 'Diese Buchung des Kontoauszugs gibt es nicht.',
  entryAssigned: 'Diese Buchung ist bereits einer Zahlung zugeordnet.',
  waiveReason: 'Bitte geben Sie einen Grund an (mindestens 10 Zeichen).',
  waiveReasonMax: 'Der Grund darf höchstens 500 Zeichen lang sein.',
  alreadyWaived: 'Das Startgeld ist bereits erlassen.',
  fileRequired: 'Bitte wählen Sie eine Datei mit dem Kontoauszug (camt.053, camt.052, ZIP oder CSV).',
  csvPreset: 'Bitte wählen Sie das Format der CSV-Datei (Sparkasse oder Hibiscus).',
  noRefundsDue: 'Es ist keine Erstattung fällig, die per Überweisung gehen kann.',
  unknownExport: 'Diese Erstattungsdatei gibt es nicht.',
  exportConfirmed: 'Diese Erstattungsdatei ist bereits als überwiesen bestätigt.',
  cashBooked: (amount: string) => `Bar bezahlt: ${amount} gebucht.`,
  girocodeLabel: 'GiroCode: mit der Banking-App scannen',
  girocodeNote: 'Dieser Code füllt die Überweisung aus. Er ist nicht dein Check-in-Code.',
} as const;
