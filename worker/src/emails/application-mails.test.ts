import type { EmailTemplateName } from '@schlosstreffen/shared';
import { PREVIEW_EVENT } from './preview-event.js';
import { describe, expect, it } from 'vitest';
import { renderEmail } from './render.js';

const event = { ...PREVIEW_EVENT, date: 'Sonntag, 13. Juni 2027', time: '09:00 – 18:00 Uhr' };

const props = {
  firstName: 'Clara',
  vehicleTitle: 'VW Golf II GTI',
  dashboardUrl: 'https://schlosstreffen.test/dashboard',
};

describe('application status mails', () => {
  it.each<[EmailTemplateName, string]>([
    ['application-received', 'Deine Bewerbung ist eingegangen – Schlosstreffen'],
    ['application-waitlist', 'Du stehst auf der Warteliste – Schlosstreffen'],
    ['application-confirmed', 'Deine Teilnahme ist bestätigt – Schlosstreffen'],
    ['application-rejected', 'Deine Bewerbung beim Schlosstreffen'],
  ])('%s renders subject, greeting, vehicle and dashboard link', async (template, subject) => {
    const mail = await renderEmail(template, props, event);
    expect(mail.subject).toBe(subject);
    expect(mail.html).toContain('Hallo Clara,');
    expect(mail.html).toContain(props.vehicleTitle);
    expect(mail.html).toContain(`href="${props.dashboardUrl}"`);
    expect(mail.html).toContain('Zum Dashboard');
    expect(mail.text).toContain('Hallo Clara,');
    expect(mail.text).toContain(props.vehicleTitle);
    expect(mail.text).toContain(props.dashboardUrl);
    // The configured event, not the spec's date.
    expect(mail.text).toContain('13. Juni 2027');
    expect(mail.text).not.toContain('2026');

    for (const missing of Object.keys(props)) {
      const { [missing as keyof typeof props]: _omitted, ...incomplete } = props;
      await expect(renderEmail(template, incomplete, event)).rejects.toThrow();
    }
  });
});
