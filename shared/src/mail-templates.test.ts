import { describe, expect, it } from 'vitest';
import {
  defaultMailText,
  fillMail,
  MAIL_DEFINITIONS,
  MAIL_KEYS,
  mailKeyOf,
  mailTextProblems,
  mailValues,
  MADE_UP_SAMPLE,
  sampleMailProps,
} from './mail-templates.js';
import { EMAIL_TEMPLATES } from './jobs.js';
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
    v.parse(EMAIL_TEMPLATES[key === 'invitation-moved-up' ? 'invitation' : key], props);
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
    const reset = fillMail('password-reset', defaultMailText('password-reset'), {
      vorname: '',
      link: 'https://x.test/r',
    });
    expect(reset.blocks[0]).toEqual({ kind: 'paragraph', lines: [[{ text: 'Hallo,' }]] });
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

  it('an invitation after moving up is its own mail', () => {
    expect(mailKeyOf('invitation', { movedUp: true })).toBe('invitation-moved-up');
    expect(mailKeyOf('invitation', { movedUp: false })).toBe('invitation');
    expect(mailKeyOf('application-rejected', {})).toBe('application-rejected');
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
