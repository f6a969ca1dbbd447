import { eventFacts } from '@schlosstreffen/shared';
import { describe, expect, it } from 'vitest';
import { renderEmail } from './render.js';

const props = {
  firstName: 'Wilma',
  signUpUrl: 'https://schlosstreffen.test/visitor-registration',
  unsubscribeUrl: 'https://schlosstreffen.test/besucher/abmelden?token=abc',
  oneClickUrl: 'https://schlosstreffen.test/api/visitor-registrations/unsubscribe?token=abc',
};

const next = eventFacts({
  name: 'Schlosstreffen',
  place: 'Schlosspark, Sachsen',
  start: new Date('2027-06-19T10:00:00+02:00'),
  end: new Date('2027-06-19T20:00:00+02:00'),
  applicationDeadline: '2027-03-31',
});

describe('visitor-next-edition mail', () => {
  it("names the next edition's date and place, where to sign up, and how to be forgotten", async () => {
    const mail = await renderEmail('visitor-next-edition', props, next);
    expect(mail.subject).toBe('Das nächste Schlosstreffen steht fest');
    expect(mail.text).toContain('Hallo Wilma,');
    expect(mail.text).toContain(
      'Schlosstreffen 2027 ist am Samstag, 19. Juni 2027, 10:00 – 20:00 Uhr, Ort: Schlosspark, Sachsen.',
    );
    expect(mail.text).toContain(`Als Besucher vormerken <${props.signUpUrl}>`);
    expect(mail.text).toContain(`Hier abmelden <${props.unsubscribeUrl}>`);
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<${props.oneClickUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });
});
