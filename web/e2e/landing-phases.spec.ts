import { expect, test, type Page } from '@playwright/test';
import { CLOCKED_URL, startClockedApp, type ClockedApp } from './clocked-app';
import { captureEverywhere, untilLive } from './support';

/**
 * The landing page through the year, as the server writes it and as it stays once hydrated: an app
 * of its own at set moments (APP_CLOCK, restarted on the same data between them) around the spec's
 * meeting of 20 June 2026 (applications open from the start, deadline 31 March), then with 2027
 * created and made current before and after its opening is set. Nothing depends on today.
 */

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: CLOCKED_URL });

let app: ClockedApp;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startClockedApp('2026-03-02T12:00:00+01:00');
});

test.afterAll(async () => {
  await app?.stop();
});

interface Expected {
  /** The hero's and the header's main button. */
  primary: { label: string; href: string };
  /** The line beside it after the deadline. */
  note?: string;
  /** The countdown: running figures, or the panel's message. */
  countdown: { days: string } | { message: string };
  /** The default FAQ's answer to 'Bis wann kann ich mich bewerben?'. */
  deadlineAnswer: RegExp;
  /** The figures strip's first label. */
  guests: string;
}

const hero = (page: Page) => page.getByRole('region', { name: 'Schlosstreffen' });
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Hauptnavigation' });

async function expectLanding(page: Page, expected: Expected): Promise<void> {
  const { primary } = expected;
  await expect(hero(page).getByRole('link', { name: primary.label, exact: true })).toHaveAttribute(
    'href',
    primary.href,
  );
  await expect(mainNav(page).getByRole('link', { name: primary.label, exact: true })).toHaveAttribute(
    'href',
    primary.href,
  );
  if (primary.label !== 'Jetzt Bewerben')
    await expect(page.getByRole('link', { name: 'Jetzt Bewerben' })).toHaveCount(0);
  // 'Als Besucher vormerken' once: beside the main button, or as it.
  await expect(hero(page).getByRole('link', { name: 'Als Besucher vormerken' })).toHaveCount(1);
  if (expected.note) await expect(hero(page).getByTestId('cta-note')).toHaveText(expected.note);
  else await expect(hero(page).getByTestId('cta-note')).toHaveCount(0);
  if ('days' in expected.countdown) {
    await expect(page.getByTestId('countdown-days')).toContainText(expected.countdown.days);
  } else {
    await expect(page.getByTestId('countdown-message')).toHaveText(expected.countdown.message);
  }
  await expect(page.getByRole('region', { name: /^Zahlen zum/ })).toContainText(expected.guests);
}

/** The FAQ's answer about the deadline, opened. */
async function expectDeadlineAnswer(page: Page, answer: RegExp): Promise<void> {
  const faq = page.locator('#faq');
  await faq.scrollIntoViewIfNeeded();
  await faq.getByRole('button', { name: 'Bis wann kann ich mich bewerben?' }).click();
  await expect(faq.getByText(answer)).toBeVisible();
}

/**
 * The page as the server wrote it, then hydrated (the first key press starts the app): the same
 * calls to action, no hydration mismatch; both sizes photographed with axe.
 */
async function checkPhase(page: Page, name: string, expected: Expected): Promise<void> {
  const hydrationErrors: string[] = [];
  const listen = (message: { type(): string; text(): string }) => {
    if (message.type() === 'error' && /hydrat|Minified React error #4(18|19|23|25)/i.test(message.text()))
      hydrationErrors.push(message.text());
  };
  page.on('console', listen);
  await page.goto('/');
  await expectLanding(page, expected);
  await page.keyboard.press('Tab');
  await untilLive(page);
  await expectLanding(page, expected);
  await expectDeadlineAnswer(page, expected.deadlineAnswer);
  // The figures count up once they come into view: the picture shows them counted.
  const figures = page.getByRole('region', { name: /^Zahlen zum/ });
  await figures.scrollIntoViewIfNeeded();
  await expect(figures.getByTestId('stat-value').first()).toHaveText('1.000+');
  await page.evaluate(() => window.scrollTo(0, 0));
  await captureEverywhere(page, `landing-phase-${name}`);
  page.off('console', listen);
  expect(hydrationErrors, `hydration of ${name}`).toEqual([]);
}

test('the landing page follows the current edition through the year', async ({ page }) => {
  test.setTimeout(170_000);

  await test.step('applications open', async () => {
    await checkPhase(page, 'open', {
      primary: { label: 'Jetzt Bewerben', href: '/apply' },
      // 2 March, noon: 109 days and some hours before 20 June, 10:00.
      countdown: { days: '109' },
      deadlineAnswer: /^Bewirb dich spätestens bis März 2026\./,
      guests: 'Erwartete Gäste',
    });
  });

  const closed: Expected = {
    primary: { label: 'Als Besucher vormerken', href: '/visitor-registration' },
    note: 'Bewerbungsschluss war am 31. März 2026',
    countdown: { days: '49' },
    deadlineAnswer: /^Der Bewerbungsschluss für Schlosstreffen 2026 war am 31\. März 2026; neue Bewerbungen/,
    guests: 'Erwartete Gäste',
  };
  await test.step('after the deadline', async () => {
    await app.restart('2026-05-01T12:00:00+02:00');
    await checkPhase(page, 'closed', closed);
    await expect(mainNav(page)).toContainText('Bewerbungsschluss war am 31. März 2026');
  });

  await test.step('on the meeting day', async () => {
    await app.restart('2026-06-20T12:00:00+02:00');
    await checkPhase(page, 'meeting-day', {
      ...closed,
      countdown: { message: 'Das Schlosstreffen läuft gerade!' },
    });
  });

  await test.step('after the meeting', async () => {
    await app.restart('2026-11-27T12:00:00+01:00');
    await checkPhase(page, 'over', {
      primary: { label: 'Rückblick 2026', href: '/rueckblick/2026' },
      countdown: { message: 'Das Schlosstreffen 2026 ist vorbei – danke an alle!' },
      deadlineAnswer: /^Das Schlosstreffen 2026 ist vorbei\. Die Bewerbung für das nächste Treffen/,
      guests: 'Gäste',
    });
    await expect(page.getByRole('region', { name: 'Zahlen zum Schlosstreffen 2026' })).not.toContainText(
      'Erwartete',
    );
  });

  await test.step('2027 current, its applications not opened yet', async () => {
    await app.cli('edition:create', '2027');
    await app.cli('edition:current', '2027');
    // The api reads the editions again every few seconds.
    await expect(async () => {
      await page.goto('/');
      await expect(hero(page).getByRole('heading', { level: 1 })).toBeVisible();
      expect(await page.locator('#site-config').textContent()).toContain('"phase":"preparation"');
    }).toPass({ timeout: 20_000 });
    await checkPhase(page, 'next-in-preparation', {
      primary: { label: 'Rückblick 2026', href: '/rueckblick/2026' },
      countdown: { days: '204' },
      deadlineAnswer:
        /^Die Bewerbung für Schlosstreffen 2027 öffnet bald; .*Bewerbungsschluss ist im März 2027\./,
      guests: 'Erwartete Gäste',
    });
  });

  await test.step('2027 with its opening set', async () => {
    await app.cli('edition:open', '2027', '--at', '2027-01-15T09:00:00+01:00');
    await expect(async () => {
      await page.goto('/');
      expect(await page.locator('#site-config').textContent()).toContain('"phase":"scheduled"');
    }).toPass({ timeout: 20_000 });
    await checkPhase(page, 'next-scheduled', {
      primary: { label: 'Bewerbung ab 15. Januar 2027', href: '/apply' },
      countdown: { days: '204' },
      deadlineAnswer: /^Die Bewerbung für Schlosstreffen 2027 öffnet am 15\. Januar 2027\./,
      guests: 'Erwartete Gäste',
    });
    // The look back on 2026 stays linked.
    await expect(hero(page).getByRole('link', { name: 'Rückblick 2026' })).toBeVisible();
  });
});
