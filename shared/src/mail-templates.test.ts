import { describe, expect, it } from 'vitest';
import {
  defaultMailText,
  fillMail,
  isLinkPlaceholder,
  MAIL_DEFINITIONS,
  MAIL_KEYS,
  mailKeyOf,
  mailTextProblems,
  mailValues,
  MADE_UP_PAYMENT,
  MADE_UP_SAMPLE,
  MAIL_GROUPS,
  placeholdersOf,
  sampleMailProps,
  templateOfMail,
  type MailKey,
} from './mail-templates.js';
import { CONFIRMED_ADDRESS_TEMPLATES, EMAIL_TEMPLATES } from './jobs.js';
import * as v from 'valibot';
import type { EventFacts } from './event-facts.js';

const event: EventFacts = {
  name: 'Schlosstreffen 2027',
  place: 'Schloss Moritzburg',
  date: 'Samstag, 19. Juni 2027',
  shortDate: '19. Juni 2027',
  time: '10:00 – 20:00 Uhr',
  year: 2027,
  deadlineMonth: 'März 2027',
};

const START = new Date('2027-06-19T08:00:00Z');

describe('mail templates', () => {
  it.each(MAIL_KEYS)('%s: the default text is valid, and the made-up data fills every placeholder', (key) => {
    expect(mailTextProblems(key, defaultMailText(key))).toEqual([]);
    const props = sampleMailProps(key, MADE_UP_SAMPLE, 'https://schlosstreffen.test', START);
    // The made-up props are what the job would carry.
    v.parse(EMAIL_TEMPLATES[templateOfMail(key)], props);
    const mail = fillMail(key, defaultMailText(key), mailValues(key, props, event));
    const all = JSON.stringify(mail);
    expect(all).not.toMatch(/\{[a-z_]+\}/);
    expect(mail.subject).not.toBe('');
    for (const name of MAIL_DEFINITIONS[key].required) expect(all).not.toContain(`{${name}}`);
  });

  it('refuses unknown placeholders, link placeholders in the subject and a missing required one, in German', () => {
    const text = defaultMailText('invitation');
    expect(
      mailTextProblems('invitation', {
        ...text,
        body: text.body.replace('[Teilnahme bestätigen]({link})', ''),
      }),
    ).toEqual([
      {
        field: 'body',
        message:
          'Der Platzhalter {link} fehlt (Link zum Bestätigen der Teilnahme). Ohne ihn erfüllt diese E-Mail ihren Zweck nicht.',
      },
    ]);
    const unknown = mailTextProblems('application-rejected', {
      subject: 'Hallo {Vorname} {link}',
      body: 'Hallo {vorname}, {startnummer}',
    });
    expect(unknown.map((p) => [p.field, p.message.split('.')[0]])).toEqual([
      ['subject', 'Den Platzhalter {Vorname} gibt es in dieser E-Mail nicht'],
      ['subject', 'Den Platzhalter {link} gibt es in dieser E-Mail nicht'],
      ['body', 'Den Platzhalter {startnummer} gibt es in dieser E-Mail nicht'],
    ]);
    expect(unknown[0]!.message).toContain('Möglich sind: {vorname}, {fahrzeug}, {dashboard_link}, {ausgabe}');
    expect(mailTextProblems('invitation', { ...text, subject: 'Los: {link}' })[0]!.message).toBe(
      'Der Platzhalter {link} ist ein Link und gehört in den Text, nicht in den Betreff.',
    );
    expect(
      mailTextProblems('application-rejected', { subject: ' ', body: '' }).map((p) => p.message),
    ).toEqual(['Bitte gib einen Betreff ein.', 'Bitte gib einen Text ein.']);
    expect(
      mailTextProblems('visitor-update', { subject: 'Neues', body: defaultMailText('visitor-update').body }),
    ).toEqual([{ field: 'subject', message: expect.stringContaining('{betreff} fehlt') }]);
  });

  it('fills values as text only: a name never becomes formatting or a link', () => {
    const mail = fillMail(
      'application-rejected',
      {
        subject: 'Absage für {fahrzeug}',
        body: 'Hallo **{vorname}**,\n\n- {fahrzeug}\n\n[Zum Dashboard]({dashboard_link})\n\nMehr im [Dashboard]({dashboard_link}).',
      },
      {
        vorname: '[Klick](https://evil.test) **fett**',
        fahrzeug: '{vorname} <b>Golf</b>',
        dashboard_link: 'https://schlosstreffen.test/dashboard',
      },
    );
    expect(mail.subject).toBe('Absage für {vorname} <b>Golf</b>');
    expect(mail.blocks).toEqual([
      {
        kind: 'paragraph',
        lines: [[{ text: 'Hallo ' }, { bold: '[Klick](https://evil.test) **fett**' }, { text: ',' }]],
      },
      { kind: 'list', items: [[{ text: '{vorname} <b>Golf</b>' }]] },
      { kind: 'button', label: 'Zum Dashboard', href: 'https://schlosstreffen.test/dashboard' },
      {
        kind: 'paragraph',
        lines: [
          [
            { text: 'Mehr im ' },
            { label: 'Dashboard', href: 'https://schlosstreffen.test/dashboard' },
            { text: '.' },
          ],
        ],
      },
    ]);
  });

  it('an empty name takes its space along, links must be absolute, an update’s text keeps its paragraphs', () => {
    const changed = fillMail('password-changed', defaultMailText('password-changed'), { vorname: '' });
    expect(changed.blocks[0]).toEqual({ kind: 'paragraph', lines: [[{ text: 'Hallo,' }]] });
    const relative = fillMail(
      'password-changed',
      { subject: 'x', body: 'Siehe [Hilfe](/hilfe) und [böse](javascript:alert(1))' },
      {},
    );
    expect(relative.blocks).toEqual([
      {
        kind: 'paragraph',
        lines: [[{ text: 'Siehe ' }, { text: 'Hilfe' }, { text: ' und ' }, { text: 'böse' }, { text: ')' }]],
      },
    ]);
    const update = fillMail('visitor-update', defaultMailText('visitor-update'), {
      vorname: 'Vera',
      betreff: 'Zeitplan',
      text: 'Erster Absatz.\n\nZweiter,\nmit Umbruch.',
      abmelden_link: 'https://x.test/ab',
    });
    expect(update.subject).toBe('Zeitplan – Schlosstreffen');
    expect(update.title).toBe('Zeitplan');
    expect(update.preview).toBe('Erster Absatz.');
    expect(update.blocks.slice(1, 3)).toEqual([
      { kind: 'paragraph', lines: [[{ text: 'Erster Absatz.' }]] },
      { kind: 'paragraph', lines: [[{ text: 'Zweiter,' }], [{ text: 'mit Umbruch.' }]] },
    ]);
  });

  it('an invitation or a visitor ticket after moving up is its own mail, sent with the same template', () => {
    expect(mailKeyOf('invitation', { movedUp: true })).toBe('invitation-moved-up');
    expect(mailKeyOf('invitation', { movedUp: false })).toBe('invitation');
    expect(mailKeyOf('visitor-ticket', { movedUp: true })).toBe('visitor-ticket-moved-up');
    expect(mailKeyOf('visitor-ticket', { movedUp: false })).toBe('visitor-ticket');
    expect(mailKeyOf('visitor-ticket', {})).toBe('visitor-ticket');
    expect(mailKeyOf('application-rejected', {})).toBe('application-rejected');
    expect(mailKeyOf('visitor-ticket-waiting', { movedUp: true })).toBe('visitor-ticket-waiting');
    expect(templateOfMail('invitation-moved-up')).toBe('invitation');
    expect(templateOfMail('visitor-ticket-moved-up')).toBe('visitor-ticket');
    expect(templateOfMail('visitor-ticket-returned')).toBe('visitor-ticket-returned');
  });

  it('a reminder or lapse without a deadline in the data names the meeting’s start', () => {
    for (const key of ['invitation-reminder', 'invitation-lapsed'] as const) {
      const props = sampleMailProps(key, MADE_UP_SAMPLE, 'https://schlosstreffen.test', START);
      expect(mailValues(key, props, event).bestaetigen_bis).toBe('19.06.2027, 10:00 Uhr');
    }
    // The invitation itself says that it has none.
    const invitation = sampleMailProps('invitation', MADE_UP_SAMPLE, 'https://schlosstreffen.test', START);
    expect(mailValues('invitation', invitation, event).bestaetigen_bis).toBe('zum Beginn des Treffens');
  });
});

describe('payment mails (Startgeld)', () => {
  const PAYMENT_KEYS = ['payment-reminder', 'payment-partial', 'payment-lapsed'] as const;
  const props = (key: MailKey, data = MADE_UP_SAMPLE) =>
    sampleMailProps(key, data, 'https://schlosstreffen.test', START);
  // 5 June 2027, 21:59 UTC: 23:59 at the venue.
  const payment = {
    ...MADE_UP_PAYMENT,
    iban: 'de89 3704 0044 0532 0130 00',
    dueAt: '2027-06-05T21:59:00.000Z',
  };

  it('are their own group, sent only to a confirmed address', () => {
    expect(MAIL_GROUPS).toEqual(['Bewerbung', 'Einladung', 'Startgeld', 'Besucher', 'Konto']);
    expect(MAIL_KEYS.filter((key) => MAIL_DEFINITIONS[key].group === 'Startgeld')).toEqual(PAYMENT_KEYS);
    for (const key of PAYMENT_KEYS) {
      expect(CONFIRMED_ADDRESS_TEMPLATES.has(key)).toBe(true);
      expect(MAIL_DEFINITIONS[key].namesNobody).toBeUndefined();
    }
  });

  it('fill amounts, IBAN, reference and deadline the German way', () => {
    const data = { ...MADE_UP_SAMPLE, payment };
    const reminder = mailValues('payment-reminder', props('payment-reminder', data), event);
    expect(reminder).toMatchObject({
      vorname: 'Max',
      betrag: '25,00\u00a0€',
      offen: '25,00\u00a0€',
      verwendungszweck: 'ST26-K7Q2P-K',
      zahlen_bis: '05.06.2027, 23:59 Uhr',
      iban: 'DE89 3704 0044 0532 0130 00',
      kontoinhaber: 'Schlosstreffen e.V.',
    });
    const partial = mailValues('payment-partial', props('payment-partial', data), event);
    expect([partial.bezahlt, partial.offen, partial.betrag]).toEqual([
      '12,50\u00a0€',
      '12,50\u00a0€',
      '25,00\u00a0€',
    ]);
    expect(mailValues('payment-lapsed', props('payment-lapsed', data), event).zahlen_bis).toBe(
      '05.06.2027, 23:59 Uhr',
    );
    const lapsed = fillMail(
      'payment-lapsed',
      defaultMailText('payment-lapsed'),
      mailValues('payment-lapsed', props('payment-lapsed', data), event),
    );
    const all = JSON.stringify(lapsed);
    expect(all).toContain('nächste Fahrzeug auf der Warteliste');
    expect(all).toContain('zahlen wir dir diesen Betrag zurück');
  });

  it('a sample without a fee or deadline uses the made-up fee and the meeting’s start', () => {
    const reminder = props('payment-reminder') as { payment: { dueAt: string; amountCents: number } };
    expect(reminder.payment.dueAt).toBe(START.toISOString());
    expect(reminder.payment.amountCents).toBe(MADE_UP_PAYMENT.amountCents);
    expect(mailValues('payment-lapsed', props('payment-lapsed'), event).zahlen_bis).toBe(
      '19.06.2027, 10:00 Uhr',
    );
    // A partial payment without a deadline is due by the meeting.
    expect(mailValues('payment-partial', props('payment-partial'), event).zahlen_bis).toBe(
      'zum Beginn des Treffens',
    );
  });

  it('the invitation carries the data’s fee and none without one; its text stays the same', () => {
    expect(props('invitation')).toMatchObject({ payment: null });
    const withFee = props('invitation', { ...MADE_UP_SAMPLE, payment });
    expect(v.parse(EMAIL_TEMPLATES.invitation, withFee).payment).toEqual(payment);
    expect(props('invitation-moved-up', { ...MADE_UP_SAMPLE, payment })).toMatchObject({
      payment,
      movedUp: true,
    });
    expect(mailValues('invitation', withFee, event)).toEqual(
      mailValues('invitation', props('invitation'), event),
    );
    // Jobs queued before the fee existed carry no payment.
    const { payment: _none, ...before } = props('invitation') as Record<string, unknown>;
    expect(v.parse(EMAIL_TEMPLATES.invitation, before).payment).toBeNull();
  });

  it('refuse props a mail about a fee cannot go out with', () => {
    const base = props('payment-partial', { ...MADE_UP_SAMPLE, payment }) as Record<string, unknown>;
    expect(v.safeParse(EMAIL_TEMPLATES['payment-partial'], base).success).toBe(true);
    for (const broken of [
      { ...base, openCents: 0 },
      { ...base, paidCents: 12.5 },
      { ...base, payment: { ...payment, amountCents: 0 } },
      { ...base, payment: { ...payment, dueAt: '5. Juni' } },
      { ...base, payment: { ...payment, reference: '' } },
    ])
      expect(v.safeParse(EMAIL_TEMPLATES['payment-partial'], broken).success).toBe(false);
    const reminder = props('payment-reminder', { ...MADE_UP_SAMPLE, payment }) as Record<string, unknown>;
    expect(
      v.safeParse(EMAIL_TEMPLATES['payment-reminder'], { ...reminder, payment: { ...payment, dueAt: null } })
        .success,
    ).toBe(false);
  });
});

describe('visitor tickets (Besucherticket)', () => {
  const TICKET_KEYS = [
    'visitor-ticket',
    'visitor-ticket-moved-up',
    'visitor-ticket-waiting',
    'visitor-ticket-returned',
  ] as const;
  const props = (key: MailKey) => sampleMailProps(key, MADE_UP_SAMPLE, 'https://schlosstreffen.test', START);
  const filled = (key: MailKey) => fillMail(key, defaultMailText(key), mailValues(key, props(key), event));

  it('are visitor mails to a confirmed registration, not to an account, and name the visitor', () => {
    expect(MAIL_KEYS.filter((key) => key.startsWith('visitor-ticket'))).toEqual(TICKET_KEYS);
    for (const key of TICKET_KEYS) {
      expect(MAIL_DEFINITIONS[key].group).toBe('Besucher');
      expect(MAIL_DEFINITIONS[key].namesNobody).toBeUndefined();
      expect(MAIL_DEFINITIONS[key].required).toContain('abmelden_link');
      expect(CONFIRMED_ADDRESS_TEMPLATES.has(templateOfMail(key))).toBe(false);
      expect(filled(key).blocks[0]).toEqual({ kind: 'paragraph', lines: [[{ text: 'Hallo Max,' }]] });
    }
  });

  it('the ticket names the meeting, links its page and its return, and says what is attached', () => {
    const mail = filled('visitor-ticket');
    expect(mail.subject).toBe('Dein Besucherticket – Schlosstreffen 2027');
    expect(mail.preview).toBe(
      'hier ist dein Besucherticket zum Schlosstreffen 2027 am Samstag, 19. Juni 2027 (10:00 – 20:00 Uhr). Ort: Schloss Moritzburg.',
    );
    expect(mail.blocks).toContainEqual({
      kind: 'button',
      label: 'Ticket öffnen',
      href: 'https://schlosstreffen.test/besucherticket/vorschau',
    });
    const all = JSON.stringify(mail);
    expect(all).toContain('kostenlos und persönlich');
    expect(all).toContain('als PDF');
    expect(all).toContain('auch ohne Netz');
    expect(all).toContain(
      '{"label":"Ticket zurückgeben","href":"https://schlosstreffen.test/besucherticket/vorschau/zurueckgeben"}',
    );
    expect(all).not.toContain('Warteliste nachgerückt');
  });

  it('after moving up, the first sentence says that a place became free', () => {
    const mail = filled('visitor-ticket-moved-up');
    expect(mail.subject).toBe('Ein Platz ist frei: Dein Besucherticket – Schlosstreffen 2027');
    expect(
      mail.preview.startsWith(
        'gute Nachrichten: Ein Platz ist frei geworden, und du bist von der Warteliste nachgerückt. Hier ist dein Besucherticket',
      ),
    ).toBe(true);
    // The rest is the ticket's text.
    expect(mail.blocks.slice(2)).toEqual(filled('visitor-ticket').blocks.slice(2));
  });

  it('refuses a ticket text without its links', () => {
    const text = defaultMailText('visitor-ticket');
    const problems = mailTextProblems('visitor-ticket', {
      ...text,
      body: text.body.replace('[Ticket zurückgeben]({rueckgabe_link})', ''),
    });
    expect(problems).toEqual([
      {
        field: 'body',
        message:
          'Der Platzhalter {rueckgabe_link} fehlt (Link zum Zurückgeben des Besuchertickets). Ohne ihn erfüllt diese E-Mail ihren Zweck nicht.',
      },
    ]);
    expect(
      mailTextProblems('visitor-ticket', { ...text, subject: 'Ticket: {ticket_link}' })[0]!.message,
    ).toBe('Der Platzhalter {ticket_link} ist ein Link und gehört in den Text, nicht in den Betreff.');
  });

  it('the waiting list and the return say what happens to the place', () => {
    const waiting = JSON.stringify(filled('visitor-ticket-waiting'));
    expect(waiting).toContain('stehst du auf der Warteliste');
    expect(waiting).toContain('wann die Vormerkungen bestätigt wurden');
    expect(waiting).toContain('bekommst du dein kostenloses Ticket per E-Mail');
    const returned = JSON.stringify(filled('visitor-ticket-returned'));
    expect(returned).toContain('zurückgegeben');
    expect(returned).toContain('dein Platz geht an die nächste Person auf der Warteliste');
  });

  it('the ticket’s props need a secret long enough and its links', () => {
    const ticket = props('visitor-ticket');
    expect(v.parse(EMAIL_TEMPLATES['visitor-ticket'], ticket).movedUp).toBe(false);
    const { movedUp: _none, ...before } = ticket;
    expect(v.parse(EMAIL_TEMPLATES['visitor-ticket'], before).movedUp).toBe(false);
    for (const broken of [
      { ...ticket, ticketSecret: 'x'.repeat(19) },
      { ...ticket, ticketUrl: 'besucherticket/abc' },
      { ...ticket, returnUrl: undefined },
      { ...ticket, oneClickUrl: undefined },
    ])
      expect(v.safeParse(EMAIL_TEMPLATES['visitor-ticket'], broken).success).toBe(false);
  });
});

/** A first name as a stranger types it: an address, a call to act, markup. */
const STRANGER = 'Max, Konto gesperrt! Sofort bestätigen: https://evil.example/x **fett** [a](https://b)';
const STRANGER_PARTS = ['Konto gesperrt', 'evil.example', 'fett', 'https://b', 'Max'];

describe('mails that name nobody', () => {
  const nobody = MAIL_KEYS.filter((key) => MAIL_DEFINITIONS[key].namesNobody);
  const EVENT = new Set(['ausgabe', 'veranstaltung', 'datum', 'uhrzeit', 'ort']);

  it('are every mail to an address nobody has confirmed, or that anyone can cause', () => {
    expect(nobody).toEqual([
      'visitor-confirmation',
      'visitor-next-edition-consent',
      'award-confirmation',
      'jury-invitation',
      'account-confirm',
      'password-reset',
      'email-change-confirm',
    ]);
  });

  it.each(nobody)('%s offers only its links and the meeting’s facts, and greets nobody', (key) => {
    for (const name of placeholdersOf(key)) expect(isLinkPlaceholder(name) || EVENT.has(name)).toBe(true);
    expect(defaultMailText(key).body.startsWith('Hallo,\n')).toBe(true);
  });

  it.each(nobody)('%s: a stored text naming someone is refused, and renders without the name', (key) => {
    const stored = {
      subject: 'Hallo {vorname} – {fahrzeug}',
      body: `Hallo {vorname},\n\n**{vorname}** [Los]({vorname}) {neue_email}\n\n${defaultMailText(key).body}`,
    };
    const problems = mailTextProblems(key, stored);
    expect(problems).toContainEqual({
      field: 'body',
      message: expect.stringMatching(
        /^Den Platzhalter \{vorname\} gibt es in dieser E-Mail nicht: Sie kann an eine Adresse gehen, deren Inhaber sie nicht angefordert hat, und nennt deshalb niemanden/,
      ),
    });
    expect(problems.map((problem) => problem.field)).toContain('subject');
    const props = { ...sampleMailProps(key, MADE_UP_SAMPLE, 'https://schlosstreffen.test', START) };
    const values = {
      ...mailValues(key, { ...props, firstName: STRANGER, newEmail: STRANGER }, event),
      vorname: STRANGER,
      fahrzeug: STRANGER,
      neue_email: STRANGER,
    };
    const mail = fillMail(key, stored, values);
    const all = JSON.stringify(mail);
    for (const part of STRANGER_PARTS) expect(all).not.toContain(part);
    expect(mail.subject).toBe('Hallo –');
    expect(mail.blocks[0]).toEqual({ kind: 'paragraph', lines: [[{ text: 'Hallo,' }]] });
    // Its own link is still its button.
    expect(mail.blocks.some((block) => block.kind === 'button')).toBe(true);
  });
});

describe('text placeholders never lead anywhere', () => {
  const body = (extra: string) => `${defaultMailText('application-received').body}\n\n${extra}`;
  const problemsOf = (key: MailKey, text: { subject?: string; body: string }) =>
    mailTextProblems(key, { subject: text.subject ?? 'Betreff', body: text.body }).map((p) => [
      p.field,
      p.message,
    ]);
  const TARGET = (name: string, links: string) =>
    `Der Platzhalter {${name}} steht für Text und kann kein Linkziel sein. Ein Link führt nur zu einer festen Adresse oder zu einem Link-Platzhalter: ${links}.`;
  const ADDRESS = (name: string) =>
    `Der Platzhalter {${name}} steht für Text und kann nicht Teil einer Internetadresse sein. Trenne ihn mit einem Leerzeichen von der Adresse.`;

  it('refuses a text placeholder as a link’s target, naming it, in German', () => {
    expect(problemsOf('application-received', { body: body('[Dein Fahrzeug ansehen]({fahrzeug})') })).toEqual(
      [['body', TARGET('fahrzeug', '{dashboard_link}')]],
    );
    expect(problemsOf('application-received', { body: body('[x](https://a.example/{vorname})') })).toEqual([
      ['body', TARGET('vorname', '{dashboard_link}')],
    ]);
    expect(
      problemsOf('application-received', { body: body('[x]({dashboard_link}?name={vorname})') }),
    ).toEqual([['body', TARGET('vorname', '{dashboard_link}')]]);
    expect(
      problemsOf('invitation', { body: defaultMailText('invitation').body + '\n\n[x]({parkzone})' }),
    ).toEqual([['body', TARGET('parkzone', '{dashboard_link}, {link}, {absagen_link}')]]);
    expect(problemsOf('password-changed', { body: 'Hallo {vorname}, [x]({vorname})' })).toEqual([
      [
        'body',
        'Der Platzhalter {vorname} steht für Text und kann kein Linkziel sein. Ein Link führt in dieser E-Mail nur zu einer festen Adresse.',
      ],
    ]);
  });

  it('refuses a text placeholder as part of an address, in the text and in the subject', () => {
    for (const extra of [
      'Mehr unter https://schlosstreffen.example/{vorname}',
      'Mehr unter www.{fahrzeug}.de',
      'Schreib an {vorname}@example.de',
      'Mehr unter {vorname}.evil.example',
      'Direkt: {dashboard_link}{fahrzeug}',
      'Fett: https://a.example/**{vorname}**',
      'Als Link: [https://a.example/{vorname}]({dashboard_link})',
    ]) {
      const [problem, ...more] = problemsOf('application-received', { body: body(extra) });
      expect(more, extra).toEqual([]);
      expect(problem![0]).toBe('body');
      expect(problem![1], extra).toMatch(
        /^Der Platzhalter \{(vorname|fahrzeug)\} steht für Text und kann nicht Teil/,
      );
    }
    expect(
      problemsOf('application-received', {
        subject: 'Siehe https://a.example/{fahrzeug}',
        body: body(''),
      }),
    ).toEqual([['subject', ADDRESS('fahrzeug')]]);
  });

  it('allows text placeholders as text: beside punctuation, in a label, after a link', () => {
    for (const extra of [
      '„{fahrzeug}“, am {datum}, {uhrzeit}. Ort: {ort}.',
      '[Zu {fahrzeug}]({dashboard_link})',
      '[Dashboard]({dashboard_link}), {vorname}!',
      '**{vorname}**: https://schlosstreffen.example/faq und {fahrzeug}',
    ])
      expect(problemsOf('application-received', { body: body(extra) }), extra).toEqual([]);
  });

  it('renders a text stored before the rule without the link or the value in the address', () => {
    const mail = fillMail(
      'application-received',
      {
        subject: 'Neu: https://a.example/{fahrzeug}',
        body: '[Dein Fahrzeug ansehen]({fahrzeug})\n\nMehr unter https://a.example/{vorname} und [x](https://a.example/{vorname})',
      },
      {
        vorname: 'evil',
        fahrzeug: 'https://evil.example/x',
        dashboard_link: 'https://schlosstreffen.test/dashboard',
      },
    );
    expect(mail.subject).toBe('Neu: https://a.example/');
    expect(mail.blocks).toEqual([
      { kind: 'paragraph', lines: [[{ text: 'Dein Fahrzeug ansehen' }]] },
      { kind: 'paragraph', lines: [[{ text: 'Mehr unter https://a.example/ und ' }, { text: 'x' }]] },
    ]);
  });
});
