import { expect, test } from '@playwright/test';
import { signInAsStaff, sql } from './support';

/**
 * The reviewers' dashboard with 10,000 applications: the first cards come within a second, every
 * status tab counts what the database holds, and scrolling loads the next page. The applications
 * are written with SQL (owners under @lasttest.e2e, brand 'Lasttest', dated ahead of everything
 * else so they lead the list) and removed afterwards, so the other specs see their own data only.
 * The figures it prints: docs/development.md#tests; the lists' budget (R2): docs/development.md#performance.
 */

const APPLICATIONS = 10_000;
const OWNERS = 100;
const STATUSES = ['draft', 'submitted', 'in_review', 'waitlist', 'invited', 'confirmed', 'rejected'];
const TABS = [
  ['Alle', null],
  ['Eingereicht', 'submitted'],
  ['In Prüfung', 'in_review'],
  ['Warteliste', 'waitlist'],
  ['Eingeladen', 'invited'],
  ['Bestätigt', 'confirmed'],
  ['Abgelehnt', 'rejected'],
] as const;
const FIRST_CARDS_BUDGET_MS = 1000;

const cleanUp = () => sql(`delete from users where email like '%@lasttest.e2e'`);

test.beforeAll(async () => {
  await cleanUp();
  await sql(`
    insert into users (id, email, password_hash, first_name, last_name, role, created_at, updated_at)
    select gen_random_uuid(), 'halter-' || g || '@lasttest.e2e', 'no-login', 'Halter', 'Last' || g, 'user', now(), now()
    from generate_series(1, ${OWNERS}) g`);
  // Vehicle g is 'Lasttest Modell <g, five digits>', the newest being the highest g.
  await sql(`
    insert into vehicle (id, user_id, edition_id, title, brand, model, year, status, ps, weight_kg,
                         top_speed_kmh, zero_to_hundred_s, description_short, created_at, updated_at)
    select gen_random_uuid(), u.id,
           (select id from edition order by current_from desc nulls last, year desc limit 1),
           'Lasttest Modell ' || lpad(g::text, 5, '0'), 'Lasttest',
           'Modell ' || lpad(g::text, 5, '0'), 1970 + g % 50,
           (array['${STATUSES.join("', '")}'])[g % 7 + 1], 100 + g % 500, 900 + g % 1500, 150 + g % 200,
           3.5 + (g % 80) / 10.0, 'Serienstand mit Gewindefahrwerk.',
           now() + interval '1 day' + g * interval '1 second', now()
    from generate_series(1, ${APPLICATIONS}) g
    join users u on u.email = 'halter-' || (g % ${OWNERS} + 1) || '@lasttest.e2e'`);
  await sql('analyze users; analyze vehicle');
});

test.afterAll(cleanUp);

test('10,000 applications: first cards within a second, counts per tab as in the database, more on scrolling', async ({
  page,
}) => {
  await signInAsStaff(page, 'reviewer', 'Lara');
  // Notes when the newest card is first in a painted frame (performance.now(): since navigation start).
  await page.addInitScript(() => {
    const record = () => {
      if (!document.querySelector('article[aria-label="Lasttest Modell 10000"]')) return false;
      requestAnimationFrame(() => {
        (window as { firstCardAt?: number }).firstCardAt = performance.now();
      });
      return true;
    };
    const observer = new MutationObserver(() => {
      if (record()) observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  // Warm the server (first queries, compiled bundles) the way a reviewer's earlier visit would.
  await page.goto('/admin/dashboard');
  await expect(page.getByRole('article').first()).toBeVisible();
  await page.goto('/');

  // The median of three visits: the machine is shared, a single visit can catch another's burst.
  const visits: string[] = [];
  const times: number[] = [];
  for (let visit = 0; visit < 3; visit++) {
    if (visit > 0) await page.goto('/');
    await page.goto('/admin/dashboard');
    // Waited for by the page's own note, read once a frame: a locator polled meanwhile would walk
    // the page's accessibility tree on its main thread and slow the very load being timed.
    await page.waitForFunction(() => (window as { firstCardAt?: number }).firstCardAt !== undefined, null, {
      polling: 'raf',
      timeout: 10_000,
    });
    await expect(page.getByRole('article', { name: 'Lasttest Modell 10000' })).toBeVisible();
    // From the start of the navigation to the frame that first painted the card, as the page saw it.
    const ms = await page.evaluate(() => (window as { firstCardAt?: number }).firstCardAt ?? Infinity);
    // Where the time went: the document, and the list's first page as the browser timed it.
    const parts = await page.evaluate(() => {
      const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const list = performance
        .getEntriesByType('resource')
        .find((entry) => /\/api\/admin\/vehicles(\?|$)/.test(entry.name)) as PerformanceResourceTiming;
      return {
        dom: Math.round(navigation.domContentLoadedEventEnd),
        listStart: Math.round(list?.startTime ?? -1),
        listEnd: Math.round(list?.responseEnd ?? -1),
      };
    });
    times.push(Math.round(ms));
    visits.push(
      `${Math.round(ms)} ms (document ready ${parts.dom} ms, first page requested at ${parts.listStart} ms, answered at ${parts.listEnd} ms)`,
    );
  }
  const firstCardsMs = [...times].sort((a, b) => a - b)[1]!;
  console.log(
    `admin dashboard, ${APPLICATIONS} applications: first cards after ${firstCardsMs} ms (median of 3)\n  ${visits.join('\n  ')}`,
  );
  expect(firstCardsMs).toBeLessThanOrEqual(FIRST_CARDS_BUDGET_MS);

  // Each tab's count is what the database holds (the other specs' vehicles included).
  const rows = await sql<{ status: string; n: number }>(
    'select status, count(*)::int as n from vehicle group by status',
  );
  const byStatus = new Map(rows.map((row) => [row.status, row.n]));
  const all = rows.reduce((sum, row) => sum + row.n, 0);
  expect(all).toBeGreaterThanOrEqual(APPLICATIONS);
  const filters = page.getByRole('tablist', { name: 'Nach Status filtern' });
  for (const [label, status] of TABS) {
    const expected = status === null ? all : (byStatus.get(status) ?? 0);
    await expect(filters.getByRole('tab', { name: new RegExp(`^${label}`) })).toHaveText(
      `${label}${expected}`,
    );
  }

  // Scrolling to the end of the loaded cards asks for the next page and shows its cards.
  let second: { items: { brand: string; model: string }[] } | undefined;
  page.on('response', (response) => {
    if (!second && /\/api\/admin\/vehicles\?cursor=/.test(response.url()) && response.ok()) {
      void response.json().then((body) => (second ??= body));
    }
  });
  for (let step = 0; step < 40 && !second; step++) {
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(150);
  }
  expect(second?.items[0]).toMatchObject({ brand: 'Lasttest', model: 'Modell 09988' });
  await page.mouse.wheel(0, 400);
  await expect(page.getByRole('article', { name: 'Lasttest Modell 09988' })).toBeVisible();
  // Only the rows near the screen are in the page, not every loaded card.
  expect(await page.getByRole('article').count()).toBeLessThan(48);

  // A tab and a search on the server, with counts for the search.
  await filters.getByRole('tab', { name: /^Warteliste/ }).click();
  await page.getByPlaceholder('Suche nach Marke oder Modell...').fill('modell 0999');
  const [waitlisted] = await sql<{ n: number }>(
    `select count(*)::int as n from vehicle where status = 'waitlist' and model ilike '%modell 0999%'`,
  );
  await expect(filters.getByRole('tab', { name: /^Warteliste/ })).toHaveText(`Warteliste${waitlisted!.n}`);
  await expect(page.getByRole('article')).toHaveCount(waitlisted!.n);
  await expect(page.getByRole('article').first()).toContainText('Warteliste');
});
