import { describe, expect, it } from 'vitest';
import { PREVIEW_EVENT } from './preview-event.js';
import { renderEmail } from './render.js';

const props = {
  firstName: 'Clara',
  vehicleTitle: 'VW Golf II GTI',
  dashboardUrl: 'https://schlosstreffen.test/dashboard',
};
const links = {
  confirmUrl: 'https://schlosstreffen.test/einladung?token=c',
  declineUrl: 'https://schlosstreffen.test/einladung/absagen?token=d',
};
// 31 May 2027, 22:00 UTC: midnight at the venue.
const confirmBy = '2027-05-31T22:00:00.000Z';

describe('mails of an invitation’s deadline', () => {
  it('the invitation names the confirm-by date at the venue and carries the decline link', async () => {
    const mail = await renderEmail(
      'invitation',
      { ...props, ...links, startNumber: 12, parkingZone: 'B', checkInCode: 'x'.repeat(32), confirmBy },
      PREVIEW_EVENT,
    );
    expect(mail.text).toContain('Bitte bestätige deine Teilnahme bis 01.06.2027, 00:00 Uhr.');
    expect(mail.text).toContain(`Teilnahme absagen <${links.declineUrl}>`);
    expect(mail.text).not.toContain('nachgerückt');
    const moved = await renderEmail(
      'invitation',
      {
        ...props,
        ...links,
        startNumber: 12,
        parkingZone: 'B',
        checkInCode: 'x'.repeat(32),
        confirmBy,
        movedUp: true,
      },
      PREVIEW_EVENT,
    );
    expect(moved.text).toContain('von der Warteliste nachgerückt');
  });

  it('an invitation issued after the cut-off has no date: it is to be confirmed before the meeting', async () => {
    const mail = await renderEmail(
      'invitation',
      { ...props, ...links, startNumber: 12, parkingZone: 'B', checkInCode: 'x'.repeat(32), confirmBy: null },
      PREVIEW_EVENT,
    );
    expect(mail.text).not.toMatch(/\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} Uhr/);
    expect(mail.text).toContain('Bitte bestätige deine Teilnahme bis zum Beginn des Treffens.');
    // The gate's part follows the text: the QR code and the code spelled out.
    expect(mail.html).toContain('src="cid:checkin-qr@schlosstreffen"');
    expect(mail.text).toContain('x'.repeat(32));
    expect(mail.attachments?.[0]?.cid).toBe('checkin-qr@schlosstreffen');
  });

  it('reminder, lapse and decline mails say what happens to the place', async () => {
    const reminder = await renderEmail(
      'invitation-reminder',
      { ...props, ...links, startNumber: 12, confirmBy },
      PREVIEW_EVENT,
    );
    expect(reminder.subject).toBe('Erinnerung: Bitte bestätige deine Teilnahme am Schlosstreffen');
    expect(reminder.text).toContain('Bitte bestätige bis 01.06.2027, 00:00 Uhr');
    expect(reminder.text).toContain(links.confirmUrl);
    expect(reminder.text).toContain(links.declineUrl);

    const lapsed = await renderEmail('invitation-lapsed', { ...props, confirmBy }, PREVIEW_EVENT);
    expect(lapsed.subject).toBe('Deine Einladung zum Schlosstreffen ist abgelaufen');
    expect(lapsed.text).toContain('war bis 01.06.2027, 00:00 Uhr zu bestätigen');

    const declined = await renderEmail('invitation-declined', props, PREVIEW_EVENT);
    expect(declined.subject).toBe('Deine Absage zum Schlosstreffen');
    expect(declined.text).toContain('dein Platz geht an das nächste Fahrzeug auf der Warteliste');
    await expect(
      renderEmail('invitation-reminder', { ...props, startNumber: 12, confirmBy }, PREVIEW_EVENT),
    ).rejects.toThrow();
  });
});
