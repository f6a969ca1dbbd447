import { describe, expect, it } from 'vitest';
import { PREVIEW_EVENT } from './preview-event.js';
import { renderEmail } from './render.js';

const props = {
  firstName: 'Vera',
  subject: 'Der Zeitplan steht',
  body: 'Die Tore öffnen um 10 Uhr.\n\nParken am Nordtor.\nBitte Schildern folgen.',
  unsubscribeUrl: 'https://schlosstreffen.test/besucher/abmelden?token=abc',
  oneClickUrl: 'https://schlosstreffen.test/api/visitor-registrations/unsubscribe?token=abc',
};

describe('visitor-update mail', () => {
  it('carries the text in paragraphs, the unsubscribe link and one-click headers', async () => {
    const mail = await renderEmail('visitor-update', props, PREVIEW_EVENT);
    expect(mail.subject).toBe('Der Zeitplan steht – Schlosstreffen');
    expect(mail.text).toContain('Hallo Vera,');
    expect(mail.text).toContain('Die Tore öffnen um 10 Uhr.');
    expect(mail.html).toMatch(/Parken am Nordtor\.<br\/>Bitte Schildern folgen\./);
    expect(mail.text).toContain(`Hier abmelden <${props.unsubscribeUrl}>`);
    expect(mail.headers).toEqual({
      'List-Unsubscribe': `<${props.oneClickUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(mail.text).not.toContain('Testversand');
  });

  it('a test to the admin says so and offers no one-click unsubscribe', async () => {
    const mail = await renderEmail('visitor-update', { ...props, test: true }, PREVIEW_EVENT);
    expect(mail.text).toContain('Testversand');
    expect(mail.headers).toBeUndefined();
  });
});
