import * as v from 'valibot';
import type { EventFacts } from './event-facts.js';
import type { EmailTemplateName, EmailTemplateProps, PaymentMailProps } from './jobs.js';
import { formatIban } from './payments/bank-account.js';
import { formatEuro } from './payments/money.js';
import { allowedLinkTarget, textBlocks, TEXT_INLINE } from './text-format.js';
import { venueDateTime } from './venue-time.js';

/**
 * The mails' texts as organizers edit them per edition ('E-Mail-Vorlagen'): a subject and a body in
 * the text format of the public texts (paragraphs, '- ' lists, **bold**, [label](target)) with named
 * placeholders such as {vorname}. The worker fills them in and renders the result into the mail
 * layout; the admin's preview fills them the same way. A placeholder's value is always text: a name
 * or a vehicle title never becomes formatting or a link. Only the links the platform makes ({link},
 * {dashboard_link}, …) may be a link's target; a text placeholder is never a target or part of an
 * address. A mail anyone can cause to an address whose owner may not have asked for it names nobody.
 */

/** Every placeholder a mail can name, with what it stands for. */
export const MAIL_PLACEHOLDERS = {
  vorname: 'Vorname der Empfängerin bzw. des Empfängers',
  fahrzeug: 'Fahrzeug: sein Name, sonst Marke und Modell',
  startnummer: 'Startnummer',
  parkzone: 'Parkzone',
  bestaetigen_bis: 'Frist für die Bestätigung (Datum und Uhrzeit)',
  link: 'Der Link dieser E-Mail',
  dashboard_link: 'Link zum Dashboard',
  absagen_link: 'Link zum Absagen der Teilnahme',
  abmelden_link: 'Link zum Abmelden von diesen E-Mails',
  ticket_link: 'Link zum Online-Ticket (funktioniert nach dem ersten Öffnen auch ohne Netz)',
  rueckgabe_link: 'Link zum Zurückgeben des Besuchertickets',
  stimmen_link: 'Link zu den eigenen Stimmen (herunterladen oder löschen)',
  neue_email: 'Die neue E-Mail-Adresse',
  betrag: 'Startgeld: der volle Betrag',
  offen: 'Noch offener Betrag des Startgelds',
  bezahlt: 'Bisher eingegangener Betrag',
  verwendungszweck: 'Verwendungszweck der Überweisung',
  zahlen_bis: 'Frist für die Zahlung (Datum und Uhrzeit)',
  iban: 'IBAN des Kontos für das Startgeld',
  kontoinhaber: 'Inhaber des Kontos für das Startgeld',
  betreff: 'Betreff des Besucher-Updates',
  text: 'Text des Besucher-Updates',
  ausgabe: 'Jahr der Ausgabe, z. B. 2027',
  veranstaltung: 'Name des Treffens',
  datum: 'Datum des Treffens',
  uhrzeit: 'Uhrzeit des Treffens',
  ort: 'Ort des Treffens',
} as const;

export type MailPlaceholder = keyof typeof MAIL_PLACEHOLDERS;

/**
 * Placeholders that stand for a link the platform made: the only ones a link may lead to. They
 * belong in the body, not in the subject. Every other placeholder holds text (typed or stored).
 */
const LINK_PLACEHOLDERS: ReadonlySet<MailPlaceholder> = new Set([
  'link',
  'dashboard_link',
  'absagen_link',
  'abmelden_link',
  'stimmen_link',
  'ticket_link',
  'rueckgabe_link',
]);

export const isLinkPlaceholder = (name: string): boolean => LINK_PLACEHOLDERS.has(name as MailPlaceholder);

/** The meeting's facts, which every mail can name. */
const EVENT_PLACEHOLDERS = ['ausgabe', 'veranstaltung', 'datum', 'uhrzeit', 'ort'] as const;

/**
 * The mails organizers edit: each job template, and the invitation and the visitor ticket after
 * moving up from the waiting list.
 */
export const MAIL_KEYS = [
  'application-received',
  'application-waitlist',
  'application-confirmed',
  'application-rejected',
  'invitation',
  'invitation-moved-up',
  'invitation-reminder',
  'invitation-lapsed',
  'invitation-declined',
  'payment-reminder',
  'payment-partial',
  'payment-lapsed',
  'visitor-confirmation',
  'visitor-ticket',
  'visitor-ticket-moved-up',
  'visitor-ticket-waiting',
  'visitor-ticket-returned',
  'visitor-update',
  'visitor-next-edition',
  'visitor-next-edition-consent',
  'award-confirmation',
  'jury-invitation',
  'account-confirm',
  'password-reset',
  'password-changed',
  'email-change-confirm',
  'email-change-notice',
] as const satisfies readonly (EmailTemplateName | 'invitation-moved-up' | 'visitor-ticket-moved-up')[];

export type MailKey = (typeof MAIL_KEYS)[number];

export const MAIL_GROUPS = ['Bewerbung', 'Einladung', 'Startgeld', 'Besucher', 'Konto'] as const;

/** Which job template a mail is sent with. */
type TemplateOf<K extends MailKey> = K extends 'invitation-moved-up'
  ? 'invitation'
  : K extends 'visitor-ticket-moved-up'
    ? 'visitor-ticket'
    : K;

type Values = Partial<Record<MailPlaceholder, string>>;

export interface MailDefinition<K extends MailKey = MailKey> {
  key: K;
  /** The mail's name in the admin area. */
  label: string;
  group: (typeof MAIL_GROUPS)[number];
  /** When it is sent. */
  when: string;
  /** The heading of the mail's layout. */
  title: string;
  /** What {link} stands for in this mail. */
  link?: string;
  /** The placeholders this mail knows (besides the meeting's facts). */
  placeholders: readonly MailPlaceholder[];
  /**
   * The mail goes to an address nobody has confirmed, or anyone can cause it: it names nobody and
   * repeats nothing typed, so it offers no text placeholder of a person or a car.
   */
  namesNobody?: true;
  /** Placeholders the body (and, for `subject`, the subject) must contain: without them it is useless. */
  required: readonly MailPlaceholder[];
  requiredInSubject?: readonly MailPlaceholder[];
  subject: string;
  body: string;
  values: (props: EmailTemplateProps<TemplateOf<K>>) => Values;
}

const deadline = (confirmBy: string | null | undefined) =>
  confirmBy ? venueDateTime(new Date(confirmBy)) : 'zum Beginn des Treffens';

const paymentValues = (payment: PaymentMailProps): Values => ({
  betrag: formatEuro(payment.amountCents),
  verwendungszweck: payment.reference,
  zahlen_bis: deadline(payment.dueAt),
  iban: formatIban(payment.iban),
  kontoinhaber: payment.accountHolder,
});
const PAYMENT_PLACEHOLDERS = [
  'betrag',
  'offen',
  'verwendungszweck',
  'zahlen_bis',
  'iban',
  'kontoinhaber',
] as const;

/** Where the payment mails' transfer details stand: under the text, not part of it. */
const PAYMENT_BELOW = 'Betrag, Konto, Verwendungszweck, Frist und GiroCode folgen unter dem Text.';

const applicationValues = (p: { firstName: string; vehicleTitle: string; dashboardUrl: string }) => ({
  vorname: p.firstName,
  fahrzeug: p.vehicleTitle,
  dashboard_link: p.dashboardUrl,
});
const APPLICATION_PLACEHOLDERS = ['vorname', 'fahrzeug', 'dashboard_link'] as const;

const invitationBody = (opening: string) => `Hallo {vorname},

${opening}

Bitte bestätige deine Teilnahme bis {bestaetigen_bis}. Ohne Bestätigung verfällt die Einladung danach, und dein Platz geht an das nächste Fahrzeug auf der Warteliste.

[Teilnahme bestätigen]({link})

- **Startnummer:** {startnummer}
- **Parkzone:** {parkzone}
- **Bestätigen bis:** {bestaetigen_bis}
- **Datum:** {datum}
- **Uhrzeit:** {uhrzeit}
- **Ort:** {ort}

Den Stand deiner Bewerbung siehst du jederzeit im [Dashboard]({dashboard_link}).

Du kannst doch nicht kommen? Dann gib deinen Platz bitte frei, damit jemand von der Warteliste nachrücken kann: [Teilnahme absagen]({absagen_link})`;

const invitationValues = (p: EmailTemplateProps<'invitation'>): Values => ({
  ...applicationValues(p),
  startnummer: String(p.startNumber),
  parkzone: p.parkingZone,
  bestaetigen_bis: deadline(p.confirmBy),
  link: p.confirmUrl,
  // Invitations queued before the decline link existed send the owner to the dashboard.
  absagen_link: p.declineUrl ?? p.dashboardUrl,
});
const INVITATION_PLACEHOLDERS = [
  ...APPLICATION_PLACEHOLDERS,
  'startnummer',
  'parkzone',
  'bestaetigen_bis',
  'link',
  'absagen_link',
] as const;

/** What both invitations (first and after moving up) share; their opening differs. */
const INVITATION = {
  group: 'Einladung',
  title: 'Du bist eingeladen!',
  link: 'Link zum Bestätigen der Teilnahme',
  placeholders: INVITATION_PLACEHOLDERS,
  required: ['link'],
  subject: 'Deine Einladung zum Schlosstreffen – Startnummer {startnummer}',
  values: invitationValues,
} as const;

const VISITOR_PLACEHOLDERS = ['link', 'abmelden_link'] as const;

/** The last paragraph of a mail to a confirmed visitor: why it comes, how to stop it, and what else that does. */
const visitorFooter = (consequence = '') =>
  `Du bekommst diese E-Mail, weil du dich beim Schlosstreffen als Besucher vorgemerkt und das bestätigt hast. Keine E-Mails mehr? [Hier abmelden]({abmelden_link})${consequence && ` ${consequence}`}`;

const visitorTicketBody = (opening: string) => `Hallo {vorname},

${opening}

Das Ticket ist kostenlos und persönlich: Es gilt nur für dich und für einen Einlass.

[Ticket öffnen]({ticket_link})

Die Ticketseite funktioniert auch ohne Netz, sobald du sie einmal geöffnet hast. Außerdem hängt dein Ticket als PDF an dieser E-Mail, und den QR-Code zum Vorzeigen am Eingang findest du unten.

Du kannst doch nicht kommen? Dann gib dein Ticket bitte zurück, damit die nächste Person auf der Warteliste deinen Platz bekommt: [Ticket zurückgeben]({rueckgabe_link})

${visitorFooter('Dein Ticket behältst du auch nach der Abmeldung; zurückgeben kannst du es mit dem Link oben.')}`;

/** What both tickets (first and after moving up) share; their opening differs. */
const VISITOR_TICKET = {
  group: 'Besucher',
  title: 'Dein Besucherticket',
  placeholders: ['vorname', 'ticket_link', 'rueckgabe_link', 'abmelden_link'],
  required: ['ticket_link', 'rueckgabe_link', 'abmelden_link'],
  values: (p: EmailTemplateProps<'visitor-ticket'>): Values => ({
    vorname: p.firstName,
    ticket_link: p.ticketUrl,
    rueckgabe_link: p.returnUrl,
    abmelden_link: p.unsubscribeUrl,
  }),
} as const;

const TICKET_BELOW = 'Der QR-Code des Tickets folgt unter dem Text, das Ticket hängt als PDF an.';
const TICKET_FACTS = 'Besucherticket zum {veranstaltung} am {datum} ({uhrzeit}). Ort: {ort}.';

export const MAIL_DEFINITIONS: { [K in MailKey]: MailDefinition<K> } = {
  'application-received': {
    key: 'application-received',
    label: 'Eingangsbestätigung',
    group: 'Bewerbung',
    when: 'Wenn eine Bewerbung eingereicht wird.',
    title: 'Bewerbung eingegangen',
    placeholders: APPLICATION_PLACEHOLDERS,
    required: [],
    subject: 'Deine Bewerbung ist eingegangen – Schlosstreffen',
    body: `Hallo {vorname},

vielen Dank für deine Bewerbung mit deinem Fahrzeug „{fahrzeug}“ für das Schlosstreffen am {datum} ({uhrzeit})! Deine Bewerbung ist bei uns eingegangen und wird jetzt von unserem Team geprüft.

Sobald wir entschieden haben, bekommst du eine E-Mail von uns. Den aktuellen Stand deiner Bewerbung siehst du jederzeit in deinem Dashboard.

[Zum Dashboard]({dashboard_link})`,
    values: applicationValues,
  },
  'application-waitlist': {
    key: 'application-waitlist',
    label: 'Warteliste',
    group: 'Bewerbung',
    when: 'Wenn eine Bewerbung auf die Warteliste kommt.',
    title: 'Auf der Warteliste',
    placeholders: APPLICATION_PLACEHOLDERS,
    required: [],
    subject: 'Du stehst auf der Warteliste – Schlosstreffen',
    body: `Hallo {vorname},

danke für deine Geduld! Wir haben deine Bewerbung mit deinem Fahrzeug „{fahrzeug}“ geprüft und dich auf die Warteliste für das Schlosstreffen am {datum} gesetzt.

Die Plätze auf dem Schlossgelände sind leider begrenzt. Sobald ein Platz frei wird, melden wir uns bei dir. Den aktuellen Stand deiner Bewerbung siehst du jederzeit in deinem Dashboard.

[Zum Dashboard]({dashboard_link})`,
    values: applicationValues,
  },
  'application-confirmed': {
    key: 'application-confirmed',
    label: 'Teilnahmebestätigung',
    group: 'Bewerbung',
    when: 'Wenn eine Teilnahme bestätigt ist.',
    title: 'Teilnahme bestätigt',
    placeholders: APPLICATION_PLACEHOLDERS,
    required: [],
    subject: 'Deine Teilnahme ist bestätigt – Schlosstreffen',
    body: `Hallo {vorname},

herzlichen Glückwunsch – du bist dabei! Dein Fahrzeug „{fahrzeug}“ ist Teil des Schlosstreffens am {datum} ({uhrzeit}).

Deine Angaben und Fotos kannst du im Dashboard noch ändern, bis wir sie für das Quartett-Kartenspiel final freigeben. Praktische Infos zu Anfahrt, Einlass und Ablauf schicken wir dir rechtzeitig vor dem Event.

[Zum Dashboard]({dashboard_link})`,
    values: applicationValues,
  },
  'application-rejected': {
    key: 'application-rejected',
    label: 'Absage',
    group: 'Bewerbung',
    when: 'Wenn eine Bewerbung abgelehnt wird.',
    title: 'Deine Bewerbung',
    placeholders: APPLICATION_PLACEHOLDERS,
    required: [],
    subject: 'Deine Bewerbung beim Schlosstreffen',
    body: `Hallo {vorname},

vielen Dank für dein Interesse am Schlosstreffen und für deine Bewerbung mit deinem Fahrzeug „{fahrzeug}“. Leider können wir dir diesmal keinen Platz anbieten.

Uns haben viele tolle Bewerbungen erreicht, und die Auswahl ist uns nicht leichtgefallen. Als Besucher bist du am {datum} ({uhrzeit}) natürlich herzlich willkommen!

[Zum Dashboard]({dashboard_link})`,
    values: applicationValues,
  },
  invitation: {
    ...INVITATION,
    key: 'invitation',
    label: 'Einladung',
    when: 'Wenn eine Bewerbung eingeladen wird. Der QR-Code für den Check-in folgt unter dem Text, bei einer Ausgabe mit Startgeld auch die Angaben zur Überweisung mit GiroCode.',
    body: invitationBody(
      'wir freuen uns, dich mit deinem Fahrzeug „{fahrzeug}“ zum {veranstaltung} einzuladen.',
    ),
  },
  'invitation-moved-up': {
    ...INVITATION,
    key: 'invitation-moved-up',
    label: 'Einladung nach Nachrücken',
    when: 'Wenn ein Fahrzeug von der Warteliste nachrückt. Der QR-Code für den Check-in folgt unter dem Text, bei einer Ausgabe mit Startgeld auch die Angaben zur Überweisung mit GiroCode.',
    body: invitationBody(
      'gute Nachrichten: Ein Platz ist frei geworden, und dein Fahrzeug „{fahrzeug}“ ist von der Warteliste nachgerückt. Wir freuen uns, dich zum {veranstaltung} einzuladen.',
    ),
  },
  'invitation-reminder': {
    key: 'invitation-reminder',
    label: 'Erinnerung an die Bestätigung',
    group: 'Einladung',
    when: 'Einige Tage vor der Frist, solange die Einladung unbestätigt ist.',
    title: 'Bitte bestätige deine Teilnahme',
    link: 'Link zum Bestätigen der Teilnahme',
    placeholders: [...APPLICATION_PLACEHOLDERS, 'startnummer', 'bestaetigen_bis', 'link', 'absagen_link'],
    required: ['link'],
    subject: 'Erinnerung: Bitte bestätige deine Teilnahme am Schlosstreffen',
    body: `Hallo {vorname},

du bist mit deinem Fahrzeug „{fahrzeug}“ (Startnummer {startnummer}) zum {veranstaltung} eingeladen, hast deine Teilnahme aber noch nicht bestätigt. Bitte bestätige bis {bestaetigen_bis}; danach verfällt die Einladung und dein Platz geht an das nächste Fahrzeug auf der Warteliste.

[Teilnahme bestätigen]({link})

Du kannst doch nicht kommen? Dann gib deinen Platz bitte frei: [Teilnahme absagen]({absagen_link})`,
    values: (p) => ({
      ...applicationValues(p),
      startnummer: String(p.startNumber),
      bestaetigen_bis: deadline(p.confirmBy),
      link: p.confirmUrl,
      absagen_link: p.declineUrl,
    }),
  },
  'invitation-lapsed': {
    key: 'invitation-lapsed',
    label: 'Einladung abgelaufen',
    group: 'Einladung',
    when: 'Wenn die Frist ohne Bestätigung verstrichen ist.',
    title: 'Einladung abgelaufen',
    placeholders: [...APPLICATION_PLACEHOLDERS, 'bestaetigen_bis'],
    required: [],
    subject: 'Deine Einladung zum Schlosstreffen ist abgelaufen',
    body: `Hallo {vorname},

deine Einladung mit dem Fahrzeug „{fahrzeug}“ war bis {bestaetigen_bis} zu bestätigen. Da keine Bestätigung kam, ist sie abgelaufen, und der Platz ist an das nächste Fahrzeug auf der Warteliste gegangen.

Als Besucher bist du am {datum} ({uhrzeit}) herzlich willkommen.

[Zum Dashboard]({dashboard_link})`,
    values: (p) => ({ ...applicationValues(p), bestaetigen_bis: deadline(p.confirmBy) }),
  },
  'invitation-declined': {
    key: 'invitation-declined',
    label: 'Absage der Teilnahme',
    group: 'Einladung',
    when: 'Wenn jemand die Teilnahme absagt.',
    title: 'Teilnahme abgesagt',
    placeholders: APPLICATION_PLACEHOLDERS,
    required: [],
    subject: 'Deine Absage zum Schlosstreffen',
    body: `Hallo {vorname},

schade, dass du mit deinem Fahrzeug „{fahrzeug}“ nicht dabei sein kannst. Deine Absage ist angekommen, und dein Platz geht an das nächste Fahrzeug auf der Warteliste.

Als Besucher bist du am {datum} ({uhrzeit}) trotzdem herzlich willkommen.

[Zum Dashboard]({dashboard_link})`,
    values: applicationValues,
  },
  'payment-reminder': {
    key: 'payment-reminder',
    label: 'Erinnerung an das Startgeld',
    group: 'Startgeld',
    when: `Drei Tage vor der Zahlungsfrist, solange das Startgeld nicht vollständig eingegangen ist. ${PAYMENT_BELOW}`,
    title: 'Bitte überweise dein Startgeld',
    placeholders: [...APPLICATION_PLACEHOLDERS, ...PAYMENT_PLACEHOLDERS],
    required: [],
    subject: 'Erinnerung: Dein Startgeld für das Schlosstreffen',
    body: `Hallo {vorname},

dein Startgeld für die Teilnahme mit deinem Fahrzeug „{fahrzeug}“ am {veranstaltung} ist noch nicht vollständig bei uns eingegangen. Bitte überweise {offen} bis {zahlen_bis}; danach verfällt deine Teilnahme, und dein Platz geht an das nächste Fahrzeug auf der Warteliste.

Gib als Verwendungszweck bitte genau {verwendungszweck} an, damit wir deine Zahlung zuordnen können. Alle Angaben zur Überweisung und den GiroCode für deine Banking-App findest du unten.

Du hast in den letzten Tagen schon überwiesen? Dann ist deine Zahlung wahrscheinlich noch unterwegs, und du musst nichts weiter tun.

[Zum Dashboard]({dashboard_link})`,
    values: (p) => ({
      ...applicationValues(p),
      ...paymentValues(p.payment),
      offen: formatEuro(p.openCents),
    }),
  },
  'payment-partial': {
    key: 'payment-partial',
    label: 'Startgeld: Teilbetrag eingegangen',
    group: 'Startgeld',
    when: `Wenn eine Überweisung eingeht, das Startgeld aber noch nicht vollständig ist. ${PAYMENT_BELOW} Der GiroCode nennt den offenen Betrag.`,
    title: 'Es fehlt noch ein Teil deines Startgelds',
    placeholders: [...APPLICATION_PLACEHOLDERS, ...PAYMENT_PLACEHOLDERS, 'bezahlt'],
    required: [],
    subject: 'Dein Startgeld ist noch nicht vollständig – Schlosstreffen',
    body: `Hallo {vorname},

danke für deine Überweisung für dein Fahrzeug „{fahrzeug}“! Bisher sind {bezahlt} von {betrag} Startgeld bei uns eingegangen, es fehlen also noch {offen}.

Bitte überweise den offenen Betrag bis {zahlen_bis} mit dem Verwendungszweck {verwendungszweck}. Ist das Startgeld bis dahin nicht vollständig da, verfällt deine Teilnahme, und dein Platz geht an das nächste Fahrzeug auf der Warteliste.

Alle Angaben zur Überweisung und den GiroCode für den offenen Betrag findest du unten.

[Zum Dashboard]({dashboard_link})`,
    values: (p) => ({
      ...applicationValues(p),
      ...paymentValues(p.payment),
      offen: formatEuro(p.openCents),
      bezahlt: formatEuro(p.paidCents),
    }),
  },
  'payment-lapsed': {
    key: 'payment-lapsed',
    label: 'Startgeld nicht eingegangen',
    group: 'Startgeld',
    when: 'Wenn die Zahlungsfrist verstrichen ist, ohne dass das Startgeld vollständig eingegangen ist: Der Platz geht an die Warteliste.',
    title: 'Zahlungsfrist abgelaufen',
    placeholders: [...APPLICATION_PLACEHOLDERS, 'zahlen_bis'],
    required: [],
    subject: 'Dein Startgeld ist nicht eingegangen – Schlosstreffen',
    body: `Hallo {vorname},

das Startgeld für dein Fahrzeug „{fahrzeug}“ war bis {zahlen_bis} zu überweisen. Da es bis dahin nicht vollständig bei uns eingegangen ist, ist deine Teilnahme verfallen, und der Platz ist an das nächste Fahrzeug auf der Warteliste gegangen.

Hast du schon einen Teil des Startgelds überwiesen, zahlen wir dir diesen Betrag zurück.

Als Besucher bist du am {datum} ({uhrzeit}) herzlich willkommen.

[Zum Dashboard]({dashboard_link})`,
    values: (p) => ({ ...applicationValues(p), zahlen_bis: deadline(p.dueAt) }),
  },
  'visitor-confirmation': {
    key: 'visitor-confirmation',
    label: 'Vormerkung bestätigen',
    group: 'Besucher',
    when: 'Wenn sich jemand als Besucher vormerkt. Sie nennt niemanden beim Namen: Wer sich vormerkt, besitzt die Adresse vielleicht nicht.',
    title: 'Vormerkung bestätigen',
    link: 'Link zum Bestätigen der Vormerkung',
    placeholders: VISITOR_PLACEHOLDERS,
    required: ['link', 'abmelden_link'],
    namesNobody: true,
    subject: 'Bitte bestätige deine Vormerkung – Schlosstreffen',
    body: `Hallo,

schön, dass du beim Schlosstreffen dabei sein möchtest! Bitte bestätige mit einem Klick, dass wir dir Neuigkeiten zum Event an diese Adresse schicken dürfen.

[Vormerkung bestätigen]({link})

Ohne deine Bestätigung schicken wir dir keine weiteren E-Mails. Du hast dich nicht vorgemerkt? Dann kannst du diese E-Mail einfach ignorieren.

Du möchtest keine E-Mails mehr von uns? [Hier abmelden]({abmelden_link})`,
    values: (p) => ({ link: p.confirmUrl, abmelden_link: p.unsubscribeUrl }),
  },
  'visitor-ticket': {
    ...VISITOR_TICKET,
    key: 'visitor-ticket',
    label: 'Besucherticket',
    when: `Bei einer Ausgabe mit Besucherplätzen: wenn ein Besucher seine Vormerkung bestätigt und noch ein Platz frei ist. ${TICKET_BELOW}`,
    subject: 'Dein Besucherticket – {veranstaltung}',
    body: visitorTicketBody(`hier ist dein ${TICKET_FACTS}`),
  },
  'visitor-ticket-moved-up': {
    ...VISITOR_TICKET,
    key: 'visitor-ticket-moved-up',
    label: 'Besucherticket nach Nachrücken',
    when: `Wenn ein Besucher von der Warteliste nachrückt, weil ein Platz frei geworden ist. ${TICKET_BELOW}`,
    subject: 'Ein Platz ist frei: Dein Besucherticket – {veranstaltung}',
    body: visitorTicketBody(
      `gute Nachrichten: Ein Platz ist frei geworden, und du bist von der Warteliste nachgerückt. Hier ist dein ${TICKET_FACTS}`,
    ),
  },
  'visitor-ticket-waiting': {
    key: 'visitor-ticket-waiting',
    label: 'Besucherticket: Warteliste',
    group: 'Besucher',
    when: 'Bei einer Ausgabe mit Besucherplätzen: wenn ein Besucher seine Vormerkung bestätigt, aber alle Plätze vergeben sind.',
    title: 'Auf der Warteliste',
    placeholders: ['vorname', 'abmelden_link'],
    required: ['abmelden_link'],
    subject: 'Du stehst auf der Warteliste für ein Besucherticket – Schlosstreffen',
    body: `Hallo {vorname},

danke für deine Bestätigung! Alle Besucherplätze beim {veranstaltung} am {datum} sind im Moment vergeben, deshalb stehst du auf der Warteliste. Die Reihenfolge richtet sich danach, wann die Vormerkungen bestätigt wurden.

Sobald ein Platz frei wird, bekommst du dein kostenloses Ticket per E-Mail. Du musst dafür nichts weiter tun.

${visitorFooter('Mit der Abmeldung verlässt du auch die Warteliste.')}`,
    values: (p) => ({ vorname: p.firstName, abmelden_link: p.unsubscribeUrl }),
  },
  'visitor-ticket-returned': {
    key: 'visitor-ticket-returned',
    label: 'Besucherticket zurückgegeben',
    group: 'Besucher',
    when: 'Wenn ein Besucher sein Ticket zurückgibt.',
    title: 'Ticket zurückgegeben',
    placeholders: ['vorname', 'abmelden_link'],
    required: ['abmelden_link'],
    subject: 'Dein Besucherticket ist zurückgegeben – Schlosstreffen',
    body: `Hallo {vorname},

du hast dein Besucherticket zum {veranstaltung} zurückgegeben. Das Ticket gilt nicht mehr, und dein Platz geht an die nächste Person auf der Warteliste.

Schade, dass du nicht dabei sein kannst! Danke, dass du den Platz freigegeben hast.

${visitorFooter()}`,
    values: (p) => ({ vorname: p.firstName, abmelden_link: p.unsubscribeUrl }),
  },
  'visitor-update': {
    key: 'visitor-update',
    label: 'Besucher-Update',
    group: 'Besucher',
    when: 'Der Rahmen jedes Besucher-Updates: {betreff} und {text} sind, was das Update schreibt.',
    title: '{betreff}',
    placeholders: ['vorname', 'betreff', 'text', 'abmelden_link'],
    required: ['text', 'abmelden_link'],
    requiredInSubject: ['betreff'],
    subject: '{betreff} – Schlosstreffen',
    body: `Hallo {vorname},

{text}

Du bekommst diese E-Mail, weil du dich beim Schlosstreffen als Besucher vorgemerkt und das bestätigt hast. Keine Updates mehr? [Hier abmelden]({abmelden_link})`,
    values: (p) => ({
      vorname: p.firstName,
      betreff: p.subject,
      text: p.body,
      abmelden_link: p.unsubscribeUrl,
    }),
  },
  'visitor-next-edition': {
    key: 'visitor-next-edition',
    label: 'Das nächste Treffen',
    group: 'Besucher',
    when: 'An Besucher früherer Ausgaben, die vom nächsten Treffen hören wollten, sobald es auf der Startseite steht.',
    title: 'Das nächste Schlosstreffen',
    link: 'Link zur Vormerkung für das neue Treffen',
    placeholders: ['vorname', ...VISITOR_PLACEHOLDERS],
    required: ['link', 'abmelden_link'],
    subject: 'Das nächste Schlosstreffen steht fest',
    body: `Hallo {vorname},

du wolltest wissen, wann das nächste Schlosstreffen stattfindet: {veranstaltung} {ausgabe} ist am {datum}, {uhrzeit}, Ort: {ort}. Wenn du wieder dabei sein möchtest, merke dich für dieses Treffen neu vor.

[Als Besucher vormerken]({link})

Dies ist die einzige E-Mail, die wir dir dazu schicken; deine bisherige Vormerkung löschen wir danach mit den Daten des vergangenen Treffens.

Du möchtest nichts mehr von uns hören? [Hier abmelden]({abmelden_link})`,
    values: (p) => ({ vorname: p.firstName, link: p.signUpUrl, abmelden_link: p.unsubscribeUrl }),
  },
  'visitor-next-edition-consent': {
    key: 'visitor-next-edition-consent',
    label: 'Nächstes Treffen: Einwilligung',
    group: 'Besucher',
    when: 'Wenn jemand eine schon vorgemerkte Adresse erneut vormerkt und „Auch über das nächste Schlosstreffen informieren“ ankreuzt: Erst der Link in dieser E-Mail fügt die Einwilligung hinzu. Sie nennt niemanden beim Namen, denn jeder kann sie auslösen.',
    title: 'Vom nächsten Treffen hören?',
    link: 'Link zum Erteilen der Einwilligung',
    placeholders: VISITOR_PLACEHOLDERS,
    required: ['link', 'abmelden_link'],
    namesNobody: true,
    subject: 'Sollen wir dich über das nächste Schlosstreffen informieren?',
    body: `Hallo,

für diese E-Mail-Adresse ist eine Vormerkung als Besucher beim Schlosstreffen gespeichert, und eben wurde darum gebeten, dich auch über das nächste Schlosstreffen zu informieren. Dafür bliebe deine Vormerkung bis dahin gespeichert. Möchtest du das, bestätige es mit dem Button.

[Über das nächste Treffen informieren]({link})

Du hast nicht darum gebeten? Dann ignoriere diese E-Mail; es ändert sich nichts.

Du möchtest keine E-Mails mehr von uns? [Hier abmelden]({abmelden_link})`,
    values: (p) => ({ link: p.consentUrl, abmelden_link: p.unsubscribeUrl }),
  },
  'award-confirmation': {
    key: 'award-confirmation',
    label: 'Publikumsliebling: Adresse bestätigen',
    group: 'Besucher',
    when: 'Wenn jemand mit einer noch nicht bestätigten Adresse für den Publikumsliebling stimmt. Sie nennt niemanden und kein Auto: Wer abstimmt, besitzt die Adresse vielleicht nicht.',
    title: 'Deine Stimme bestätigen',
    link: 'Link zum Bestätigen der Adresse',
    placeholders: ['link', 'stimmen_link'],
    required: ['link', 'stimmen_link'],
    namesNobody: true,
    subject: 'Bitte bestätige deine Stimme – Publikumsliebling',
    body: `Hallo,

mit dieser E-Mail-Adresse wurde beim Schlosstreffen für den Publikumsliebling abgestimmt. Damit die Stimme zählt, bestätige bitte mit dem Button, dass die Adresse dir gehört.

[Adresse bestätigen]({link})

Du hast nicht abgestimmt? Dann ignoriere diese E-Mail; ohne Bestätigung zählt keine Stimme.

Deine Stimmen herunterladen oder löschen: [Meine Stimmen]({stimmen_link})`,
    values: (p) => ({ link: p.confirmUrl, stimmen_link: p.votesUrl }),
  },
  'jury-invitation': {
    key: 'jury-invitation',
    label: 'Jury: Einladung',
    group: 'Konto',
    when: 'Wenn ein Admin eine Adresse ohne Konto in die Jury einlädt. Der Link gilt nur für ein Konto, das diese Adresse bestätigt hat.',
    title: 'Einladung in die Jury',
    link: 'Link zum Annehmen der Einladung',
    placeholders: ['link'],
    required: ['link'],
    namesNobody: true,
    subject: 'Einladung in die Jury – {veranstaltung}',
    body: `Hallo,

du bist eingeladen, beim {veranstaltung} in der Jury die Autos zu bewerten. Melde dich mit einem Konto dieser E-Mail-Adresse an (oder registriere dich damit) und nimm die Einladung an:

[Einladung annehmen]({link})

Der Link gilt 14 Tage. Du hast keine Einladung erwartet? Dann ignoriere diese E-Mail.`,
    values: (p) => ({ link: p.acceptUrl }),
  },
  'account-confirm': {
    key: 'account-confirm',
    label: 'E-Mail-Adresse bestätigen',
    group: 'Konto',
    when: 'Nach der Registrierung, an die angegebene Adresse. Sie nennt niemanden beim Namen: Wer sich registriert, besitzt die Adresse vielleicht nicht.',
    title: 'E-Mail-Adresse bestätigen',
    link: 'Link zum Bestätigen der Adresse',
    placeholders: ['link'],
    required: ['link'],
    namesNobody: true,
    subject: 'Bestätige deine E-Mail-Adresse – Schlosstreffen',
    body: `Hallo,

mit dieser E-Mail-Adresse wurde ein Konto beim Schlosstreffen angelegt. Bestätige die Adresse mit dem Button; erst dann kannst du eine Bewerbung einreichen, und erst dann schreiben wir dir zu deinem Konto. Der Link ist 48 Stunden gültig.

[E-Mail-Adresse bestätigen]({link})

Du hast kein Konto angelegt? Dann ignoriere diese E-Mail: Ohne Bestätigung verknüpfen wir nichts mit deiner Adresse.`,
    values: (p) => ({ link: p.confirmUrl }),
  },
  'password-reset': {
    key: 'password-reset',
    label: 'Passwort zurücksetzen',
    group: 'Konto',
    when: 'Wenn jemand „Passwort vergessen?“ nutzt. Sie nennt niemanden beim Namen: Jeder kann sie anfordern, auch für ein Konto, dessen Adresse noch niemand bestätigt hat.',
    title: 'Passwort zurücksetzen',
    link: 'Link zum Setzen eines neuen Passworts',
    placeholders: ['link'],
    required: ['link'],
    namesNobody: true,
    subject: 'Passwort zurücksetzen – Schlosstreffen',
    body: `Hallo,

du hast einen Link zum Zurücksetzen deines Passworts angefordert. Klicke auf den Button, um ein neues Passwort zu setzen. Der Link ist 1 Stunde gültig und kann nur einmal verwendet werden.

[Neues Passwort setzen]({link})

Du hast das nicht angefordert? Dann kannst du diese E-Mail ignorieren, dein Passwort bleibt unverändert.`,
    values: (p) => ({ link: p.resetUrl }),
  },
  'password-changed': {
    key: 'password-changed',
    label: 'Passwort geändert',
    group: 'Konto',
    when: 'Wenn das Passwort eines Kontos geändert wurde.',
    title: 'Passwort geändert',
    placeholders: ['vorname'],
    required: [],
    subject: 'Dein Passwort wurde geändert – Schlosstreffen',
    body: `Hallo {vorname},

das Passwort deines Kontos beim Schlosstreffen wurde soeben geändert. Alle anderen Anmeldungen wurden beendet.

Warst du das nicht? Dann setze dein Passwort über „Passwort vergessen?“ auf der Anmeldeseite sofort neu.`,
    values: (p) => ({ vorname: p.firstName }),
  },
  'email-change-confirm': {
    key: 'email-change-confirm',
    label: 'Neue E-Mail-Adresse bestätigen',
    group: 'Konto',
    when: 'An die neue Adresse, wenn jemand die E-Mail-Adresse seines Kontos ändert. Sie nennt niemanden und wiederholt nichts Eingegebenes: Die neue Adresse ist noch nicht bestätigt.',
    title: 'Neue E-Mail-Adresse bestätigen',
    link: 'Link, mit dem die neue Adresse gilt',
    placeholders: ['link'],
    required: ['link'],
    namesNobody: true,
    subject: 'Bestätige deine neue E-Mail-Adresse – Schlosstreffen',
    body: `Hallo,

jemand möchte ein Konto beim Schlosstreffen künftig mit dieser E-Mail-Adresse nutzen. Warst du das, bestätige die neue Adresse mit dem Button; erst dann gilt sie. Der Link ist 24 Stunden gültig.

[Neue E-Mail-Adresse bestätigen]({link})

Du hast das nicht veranlasst? Dann ignoriere diese E-Mail; es ändert sich nichts.`,
    values: (p) => ({ link: p.confirmUrl }),
  },
  'email-change-notice': {
    key: 'email-change-notice',
    label: 'E-Mail-Adresse wird geändert',
    group: 'Konto',
    when: 'An die bisherige Adresse, wenn jemand die E-Mail-Adresse des Kontos ändert.',
    title: 'E-Mail-Adresse wird geändert',
    link: 'Link zum Abbrechen der Änderung',
    placeholders: ['vorname', 'neue_email', 'link'],
    required: ['link'],
    subject: 'Deine E-Mail-Adresse soll geändert werden – Schlosstreffen',
    body: `Hallo {vorname},

für dein Konto beim Schlosstreffen wurde die neue E-Mail-Adresse {neue_email} angegeben. Sie gilt erst, wenn der Bestätigungslink an die neue Adresse geöffnet wird.

Warst du das nicht? Dann brich die Änderung hier ab und ändere dein Passwort. Auch ein neues Passwort bricht die Änderung ab.

[Änderung abbrechen]({link})`,
    values: (p) => ({ vorname: p.firstName, neue_email: p.newEmail, link: p.cancelUrl }),
  },
};

export const isMailKey = (key: string): key is MailKey => (MAIL_KEYS as readonly string[]).includes(key);

/**
 * The editable mail a job sends: its template, or the invitation's or the visitor ticket's variant
 * after moving up.
 */
export function mailKeyOf(template: EmailTemplateName, props: Record<string, unknown>): MailKey {
  if (props.movedUp !== true) return template;
  if (template === 'invitation') return 'invitation-moved-up';
  if (template === 'visitor-ticket') return 'visitor-ticket-moved-up';
  return template;
}

/** The job template a mail is sent with. */
export const templateOfMail = (key: MailKey): EmailTemplateName =>
  key === 'invitation-moved-up' ? 'invitation' : key === 'visitor-ticket-moved-up' ? 'visitor-ticket' : key;

/** Every placeholder a mail knows: its own and the meeting's facts. */
export const placeholdersOf = (key: MailKey): MailPlaceholder[] => [
  ...MAIL_DEFINITIONS[key].placeholders,
  ...EVENT_PLACEHOLDERS,
];

/** What a placeholder stands for in this mail ({link} is the mail's own link). */
export function placeholderMeaning(key: MailKey, name: MailPlaceholder): string {
  const { link } = MAIL_DEFINITIONS[key] as MailDefinition;
  return name === 'link' && link ? link : MAIL_PLACEHOLDERS[name];
}

/** Whether the mail's body or subject must name the placeholder. */
export function isRequiredPlaceholder(key: MailKey, name: MailPlaceholder): boolean {
  const { required, requiredInSubject = [] } = MAIL_DEFINITIONS[key] as MailDefinition;
  return required.includes(name) || requiredInSubject.includes(name);
}

/** The placeholders' values for a mail: from the job's props and the meeting's facts. */
export function mailValues(key: MailKey, props: unknown, event: EventFacts): Values {
  const definition = MAIL_DEFINITIONS[key] as MailDefinition;
  return {
    ausgabe: String(event.year),
    veranstaltung: event.name,
    datum: event.date,
    uhrzeit: event.time,
    ort: event.place,
    ...definition.values(props as never),
  };
}

export interface MailText {
  subject: string;
  body: string;
}

export const MAIL_TEXT_LIMITS = { subject: 200, body: 10_000 } as const;

export interface MailTextProblem {
  field: 'subject' | 'body';
  message: string;
}

const PLACEHOLDER = /\{([^{}\s]*)\}/g;

const named = (text: string) => [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!);

/**
 * What mail clients (and the plain-text version) would read as an internet address: a scheme, 'www.'
 * or a host name with a top-level domain. Checked on a stretch without spaces, with text values as
 * 'x' and link values as an address.
 */
const ADDRESS_LIKE =
  /:\/\/|\bwww\.|\b(?:https?|ftp|mailto|tel|sms|file|data|javascript):|[a-z0-9-]\.[a-z]{2,}(?![a-zäöüß])/i;

/** A text placeholder where it would become a link's target or part of an address. */
interface TextInLink {
  name: string;
  /** Its place in the line (`{` up to after `}`). */
  start: number;
  end: number;
  as: 'target' | 'address';
}

/**
 * The text placeholders of one line that would lead somewhere: in a link's target, or in a stretch
 * without spaces that reads as an address once filled (`https://a/{vorname}`, `{vorname}.de`,
 * `{vorname}{link}`). The line is read as the mail shows it: bold without its stars, a link as its
 * label; `markup: false` reads it as it stands (the subject).
 */
function textInLinks(line: string, markup: boolean): TextInLink[] {
  const found: TextInLink[] = [];
  // What a reader sees, and where each of its characters stands in the line.
  let shown = '';
  const at: number[] = [];
  const keep = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      shown += line[i];
      at.push(i);
    }
  };
  let last = 0;
  if (markup) {
    for (const match of line.matchAll(TEXT_INLINE)) {
      const [whole, bold, label, target] = match;
      keep(last, match.index);
      if (bold !== undefined) keep(match.index + 2, match.index + 2 + bold.length);
      else {
        keep(match.index + 1, match.index + 1 + label!.length);
        const from = match.index + whole.length - 1 - target!.length;
        for (const inner of target!.matchAll(PLACEHOLDER))
          if (!isLinkPlaceholder(inner[1]!))
            found.push({
              name: inner[1]!,
              start: from + inner.index,
              end: from + inner.index + inner[0].length,
              as: 'target',
            });
      }
      last = match.index + whole.length;
    }
  }
  keep(last, line.length);
  for (const run of shown.matchAll(/\S+/g)) {
    const inner = [...run[0].matchAll(PLACEHOLDER)].filter((match) => !isLinkPlaceholder(match[1]!));
    if (!inner.length) continue;
    const filled = run[0].replace(PLACEHOLDER, (_, name: string) =>
      isLinkPlaceholder(name) ? 'https://x.example/' : 'x',
    );
    if (!ADDRESS_LIKE.test(filled)) continue;
    for (const match of inner) {
      const start = at[run.index + match.index]!;
      const end = at[run.index + match.index + match[0].length - 1]! + 1;
      // A placeholder split by markup is no placeholder of the line.
      if (end - start === match[0].length) found.push({ name: match[1]!, start, end, as: 'address' });
    }
  }
  return found;
}

/** The line with the text placeholders that would lead somewhere left out (a text stored before the rule). */
function withoutTextInAddresses(line: string, markup: boolean): string {
  const found = textInLinks(line, markup)
    .filter((place) => place.as === 'address')
    .sort((a, b) => b.start - a.start);
  let out = line;
  for (const place of found) out = out.slice(0, place.start) + out.slice(place.end);
  return out;
}

/**
 * Why a mail's text cannot be saved, in German (empty: it can): an empty or overlong part, a
 * placeholder the mail does not know (or one naming someone in a mail that names nobody), a link
 * placeholder in the subject, a text placeholder as a link's target or part of an address, a
 * required one missing.
 */
export function mailTextProblems(key: MailKey, text: MailText): MailTextProblem[] {
  const definition = MAIL_DEFINITIONS[key] as MailDefinition;
  const names = placeholdersOf(key);
  const known = new Set<string>(names);
  const list = names.map((name) => `{${name}}`).join(', ');
  const links = names.filter(isLinkPlaceholder).map((name) => `{${name}}`);
  const problems: MailTextProblem[] = [];
  const subject = text.subject.trim();
  if (!subject) problems.push({ field: 'subject', message: 'Bitte gib einen Betreff ein.' });
  if (subject.length > MAIL_TEXT_LIMITS.subject)
    problems.push({
      field: 'subject',
      message: `Der Betreff darf höchstens ${MAIL_TEXT_LIMITS.subject} Zeichen lang sein.`,
    });
  if (/[\r\n]/.test(subject))
    problems.push({ field: 'subject', message: 'Der Betreff muss in einer Zeile stehen.' });
  if (!text.body.trim()) problems.push({ field: 'body', message: 'Bitte gib einen Text ein.' });
  if (text.body.length > MAIL_TEXT_LIMITS.body)
    problems.push({
      field: 'body',
      message: `Der Text darf höchstens ${MAIL_TEXT_LIMITS.body.toLocaleString('de-DE')} Zeichen lang sein.`,
    });
  for (const field of ['subject', 'body'] as const) {
    for (const name of new Set(named(text[field]))) {
      if (!known.has(name))
        problems.push({
          field,
          message:
            definition.namesNobody && name in MAIL_PLACEHOLDERS
              ? `Den Platzhalter {${name}} gibt es in dieser E-Mail nicht: Sie kann an eine Adresse gehen, deren Inhaber sie nicht angefordert hat, und nennt deshalb niemanden und wiederholt nichts, was jemand eingegeben hat. Möglich sind: ${list}.`
              : `Den Platzhalter {${name}} gibt es in dieser E-Mail nicht. Möglich sind: ${list}.`,
        });
      else if (field === 'subject' && isLinkPlaceholder(name))
        problems.push({
          field,
          message: `Der Platzhalter {${name}} ist ein Link und gehört in den Text, nicht in den Betreff.`,
        });
    }
    const reported = new Set<string>();
    for (const line of text[field].split('\n')) {
      for (const place of textInLinks(line, field === 'body')) {
        if (!known.has(place.name) || reported.has(`${place.as}:${place.name}`)) continue;
        reported.add(`${place.as}:${place.name}`);
        problems.push({
          field,
          message:
            place.as === 'target'
              ? `Der Platzhalter {${place.name}} steht für Text und kann kein Linkziel sein. ${
                  links.length
                    ? `Ein Link führt nur zu einer festen Adresse oder zu einem Link-Platzhalter: ${links.join(', ')}.`
                    : 'Ein Link führt in dieser E-Mail nur zu einer festen Adresse.'
                }`
              : `Der Platzhalter {${place.name}} steht für Text und kann nicht Teil einer Internetadresse sein. Trenne ihn mit einem Leerzeichen von der Adresse.`,
        });
      }
    }
  }
  const missing = (field: 'subject' | 'body', names: readonly MailPlaceholder[]) => {
    const present = new Set(named(text[field]));
    for (const name of names)
      if (!present.has(name))
        problems.push({
          field,
          message: `Der Platzhalter {${name}} fehlt (${placeholderMeaning(key, name)}). Ohne ihn erfüllt diese E-Mail ihren Zweck nicht.`,
        });
  };
  missing('subject', definition.requiredInSubject ?? []);
  missing('body', definition.required);
  return problems;
}

/** A piece of a line: text, bold text or a link (label and http(s) target), placeholders filled. */
export type MailInline = { text: string } | { bold: string } | { label: string; href: string };

export type MailBlock =
  | { kind: 'paragraph'; lines: MailInline[][] }
  | { kind: 'list'; items: MailInline[][] }
  /** A paragraph that is nothing but a link: the mail's call to action. */
  | { kind: 'button'; label: string; href: string };

export interface FilledMail {
  subject: string;
  /** The heading of the layout. */
  title: string;
  blocks: MailBlock[];
  /** The inbox's preview line. */
  preview: string;
}

const fill = (text: string, values: Values) =>
  text.replace(PLACEHOLDER, (whole, name: string) => values[name as MailPlaceholder] ?? whole);

/** An empty value takes the space before it along when punctuation follows: 'Hallo {vorname},' → 'Hallo,'. */
const dropEmpty = (text: string, values: Values) =>
  text.replace(/ ?\{([^{}\s]*)\}(?=[,.!?;:])/g, (whole, name: string) =>
    values[name as MailPlaceholder] === '' ? '' : whole,
  );

/**
 * The values a mail's text is filled with: a placeholder the mail does not offer (a name in a
 * mail that names nobody, kept in a text stored before) is left out, whatever was passed for it.
 */
function offeredValues(key: MailKey, values: Values): Values {
  const offered = new Set<string>(placeholdersOf(key));
  const out: Values = { ...values };
  for (const name of Object.keys(MAIL_PLACEHOLDERS) as MailPlaceholder[])
    if (!offered.has(name)) out[name] = '';
  return out;
}

/**
 * One line of the template, parsed first and filled then: a value never becomes formatting. A link
 * leads only to an absolute address, and only where no text placeholder is part of its target.
 */
function inlines(raw: string, values: Values): MailInline[] {
  const line = withoutTextInAddresses(raw, true);
  const parts: MailInline[] = [];
  let at = 0;
  const text = (raw: string) => {
    const filled = fill(raw, values);
    if (filled) parts.push({ text: filled });
  };
  for (const match of line.matchAll(TEXT_INLINE)) {
    const [whole, bold, label, target] = match;
    text(line.slice(at, match.index));
    if (bold !== undefined) parts.push({ bold: fill(bold, values) });
    else {
      const textTarget = named(target!).some((name) => !isLinkPlaceholder(name));
      const href = fill(target!, values);
      // Mails link absolute addresses only; anything else stays its label.
      if (!textTarget && allowedLinkTarget(href) && /^https?:/i.test(href))
        parts.push({ label: fill(label!, values), href });
      else text(label!);
    }
    at = match.index + whole.length;
  }
  text(line.slice(at));
  return parts;
}

const plain = (parts: MailInline[]) =>
  parts.map((part) => ('text' in part ? part.text : 'bold' in part ? part.bold : part.label)).join('');

/** The mail's text with its values: subject, heading, blocks and the inbox preview line. */
export function fillMail(key: MailKey, text: MailText, given: Values): FilledMail {
  const definition = MAIL_DEFINITIONS[key] as MailDefinition;
  const values = offeredValues(key, given);
  const body = dropEmpty(text.body, values);
  const blocks: MailBlock[] = [];
  for (const block of textBlocks(body)) {
    if (block.list) {
      blocks.push({ kind: 'list', items: block.items.map((item) => inlines(item, values)) });
      continue;
    }
    // A paragraph that is one placeholder of several paragraphs (an update's text) stays several.
    const only = block.lines.length === 1 ? /^\{([^{}\s]+)\}$/.exec(block.lines[0]!)?.[1] : undefined;
    const value = only === undefined ? undefined : values[only as MailPlaceholder];
    if (value !== undefined) {
      for (const part of value.split(/\n\s*\n/)) {
        const lines = part
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean);
        if (lines.length) blocks.push({ kind: 'paragraph', lines: lines.map((line) => [{ text: line }]) });
      }
      continue;
    }
    const lines = block.lines.map((line) => inlines(line, values));
    const [first] = lines;
    if (lines.length === 1 && first!.length === 1 && 'href' in first![0]!) {
      blocks.push({ kind: 'button', label: first![0].label, href: first![0].href });
    } else blocks.push({ kind: 'paragraph', lines });
  }
  const paragraphs = blocks.filter((block) => block.kind === 'paragraph');
  // The first paragraph after the greeting says what the mail is about.
  const opening = paragraphs.find((block) => !/^Hallo\b/.test(plain(block.lines[0]!)));
  const subject = withoutTextInAddresses(dropEmpty(text.subject, values), false);
  return {
    subject: fill(subject, values).replace(/\s+/g, ' ').trim(),
    title: fill(definition.title, values),
    blocks,
    preview: opening ? opening.lines.map(plain).join(' ').slice(0, 140) : '',
  };
}

/** The default text of a mail. */
export const defaultMailText = (key: MailKey): MailText => ({
  subject: MAIL_DEFINITIONS[key].subject,
  body: MAIL_DEFINITIONS[key].body,
});

/** An application's data (or made-up data) for a mail's preview and its test mail. */
export interface MailSampleData {
  firstName: string;
  vehicleTitle: string;
  startNumber: number;
  parkingZone: string;
  /** ISO instant, or null: no deadline. */
  confirmBy: string | null;
  /** The invitation's fee to transfer; without one the invitation shows none and the payment mails a made-up one. */
  payment?: PaymentMailProps | null;
}

export const MADE_UP_SAMPLE: MailSampleData = {
  firstName: 'Max',
  vehicleTitle: 'BMW M3 E46',
  startNumber: 17,
  parkingZone: 'A',
  confirmBy: null,
};

/** A made-up fee for the payment mails' preview: the account is the standard's example IBAN, no one's. */
export const MADE_UP_PAYMENT: PaymentMailProps = {
  amountCents: 2500,
  accountHolder: 'Schlosstreffen e.V.',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  reference: 'ST26-K7Q2P-K',
  dueAt: null,
};

/**
 * The job props a mail would get for this data. Its links lead to the site's pages with a token
 * that is no token ('vorschau'): a test mail's link shows the page's answer to an invalid link.
 * The reminder and the lapse always name a deadline: without one in the data, the meeting's start.
 * The invitation carries the data's fee (none without one); the payment mails that fee or a made-up
 * one, of which a partial payment has come in half.
 */
export function sampleMailProps(
  key: MailKey,
  data: MailSampleData,
  publicUrl: string,
  meetingStart: Date,
): Record<string, unknown> {
  const token = (path: string) => `${publicUrl}${path}?token=vorschau`;
  const application = {
    firstName: data.firstName,
    vehicleTitle: data.vehicleTitle,
    dashboardUrl: `${publicUrl}/dashboard`,
  };
  const confirmBy = data.confirmBy ?? meetingStart.toISOString();
  const payment = data.payment ?? MADE_UP_PAYMENT;
  const dueAt = payment.dueAt ?? meetingStart.toISOString();
  const paidCents = Math.max(1, Math.floor(payment.amountCents / 2));
  const invitation = {
    ...application,
    startNumber: data.startNumber,
    parkingZone: data.parkingZone,
    checkInCode: 'VORSCHAU-KEIN-GUELTIGER-CODE',
    confirmUrl: token('/einladung'),
    declineUrl: token('/einladung/absagen'),
    confirmBy: data.confirmBy,
    payment: data.payment ?? null,
  };
  const visitorLinks = {
    unsubscribeUrl: token('/besucher/abmelden'),
    oneClickUrl: token('/api/visitor-registrations/unsubscribe'),
  };
  const visitor = { firstName: data.firstName, ...visitorLinks };
  const ticket = {
    ...visitor,
    ticketUrl: `${publicUrl}/besucherticket/vorschau`,
    returnUrl: `${publicUrl}/besucherticket/vorschau/zurueckgeben`,
    ticketSecret: 'VORSCHAU-KEIN-GUELTIGES-TICKET',
  };
  const props: { [K in MailKey]: Record<string, unknown> } = {
    'application-received': application,
    'application-waitlist': application,
    'application-confirmed': application,
    'application-rejected': application,
    invitation: { ...invitation, movedUp: false },
    'invitation-moved-up': { ...invitation, movedUp: true },
    'invitation-reminder': {
      ...application,
      startNumber: data.startNumber,
      confirmBy,
      confirmUrl: token('/einladung'),
      declineUrl: token('/einladung/absagen'),
    },
    'invitation-lapsed': { ...application, confirmBy },
    'invitation-declined': application,
    'payment-reminder': { ...application, payment: { ...payment, dueAt }, openCents: payment.amountCents },
    'payment-partial': {
      ...application,
      payment,
      paidCents,
      openCents: Math.max(1, payment.amountCents - paidCents),
    },
    'payment-lapsed': { ...application, dueAt },
    'visitor-confirmation': { ...visitorLinks, confirmUrl: token('/besucher/bestaetigen') },
    'visitor-ticket': { ...ticket, movedUp: false },
    'visitor-ticket-moved-up': { ...ticket, movedUp: true },
    'visitor-ticket-waiting': visitor,
    'visitor-ticket-returned': visitor,
    'visitor-update': {
      ...visitor,
      subject: 'Der Zeitplan steht',
      body: 'Am Samstag öffnen wir die Tore um 10 Uhr.\n\nParkplätze für Besucher gibt es am Nordtor.',
      test: true,
    },
    'visitor-next-edition': { ...visitor, signUpUrl: `${publicUrl}/visitor-registration` },
    'visitor-next-edition-consent': { ...visitorLinks, consentUrl: token('/besucher/naechstes-treffen') },
    'award-confirmation': {
      confirmUrl: token('/publikumsliebling/bestaetigen'),
      votesUrl: token('/publikumsliebling/meine-stimmen'),
    },
    'jury-invitation': { editionName: 'Schlosstreffen', acceptUrl: token('/jury/einladung') },
    'account-confirm': { confirmUrl: token('/email-bestaetigen') },
    'password-reset': { resetUrl: token('/reset-password') },
    'password-changed': { firstName: data.firstName },
    'email-change-confirm': { confirmUrl: token('/email-bestaetigen') },
    'email-change-notice': {
      firstName: data.firstName,
      newEmail: 'neue.adresse@example.de',
      cancelUrl: token('/email-aenderung-abbrechen'),
    },
  };
  return props[key];
}

export const MAIL_TEMPLATE_MESSAGES = {
  unknownMail: 'Diese E-Mail-Vorlage gibt es nicht.',
  text: 'Betreff und Text müssen als Text übermittelt werden.',
  baseVersion: 'Es fehlt, welche Version der Vorlage bearbeitet wurde.',
  vehicle: 'Die gewählte Bewerbung gibt es in dieser Ausgabe nicht.',
  changedMeanwhile: (version: number, by: string) =>
    `Die Vorlage wurde inzwischen geändert (Version ${version} von ${by}). Lade sie neu und übertrage deine Änderungen.`,
  testQueued: (address: string) => `Die Testmail an ${address} ist unterwegs.`,
  testSubject: (subject: string) => `[Test] ${subject}`,
} as const;

const textField = v.pipe(
  v.string(MAIL_TEMPLATE_MESSAGES.text),
  v.maxLength(20_000, MAIL_TEMPLATE_MESSAGES.text),
);

/** A save: the text and the version it was edited from (a save over a newer version is refused). */
export const MailTextInputSchema = v.object({
  subject: textField,
  body: textField,
  baseVersion: v.pipe(
    v.number(MAIL_TEMPLATE_MESSAGES.baseVersion),
    v.integer(MAIL_TEMPLATE_MESSAGES.baseVersion),
    v.minValue(0, MAIL_TEMPLATE_MESSAGES.baseVersion),
  ),
});

/** 'Standard wiederherstellen': the version it was asked from. */
export const MailRestoreInputSchema = v.object({ baseVersion: MailTextInputSchema.entries.baseVersion });

/** 'Testmail an mich': the draft as it stands, filled with a chosen application's data. */
export const MailTestInputSchema = v.object({
  subject: textField,
  body: textField,
  vehicleId: v.optional(
    v.nullable(v.pipe(v.string(MAIL_TEMPLATE_MESSAGES.vehicle), v.uuid(MAIL_TEMPLATE_MESSAGES.vehicle))),
  ),
});
