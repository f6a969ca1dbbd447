/**
 * R5: the landing page of the built app as the api serves it. Lighthouse (default config: the
 * mobile preset with simulated throttling) five times in Debian's Chromium, the median of each
 * metric; the initial JavaScript, every .js response of loading `/` gzipped (level 9) and summed;
 * then five more Lighthouse runs with a CPU hog beside them (one busy process per core, started
 * before the first and stopped after the last, each ending by itself after HOG_LIMIT_MS at most).
 */
import { writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_FLAGS, CORES, PUBLIC_URL } from '../settings.js';
import { spawnNode } from '../stack.js';
import { median, type Figure } from '../stats.js';

const RUNS = 5;
/** Longer than five Lighthouse runs take; a hog outliving the bench ends by itself. */
const HOG_LIMIT_MS = 10 * 60_000;

interface Run {
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
}

const ATTEMPTS = 3;

/**
 * One Lighthouse run; a run whose trace recording failed (Lighthouse's runtime errors such as
 * NO_NAVSTART, which it asks to answer by running again) is repeated, at most ATTEMPTS times.
 */
async function lighthouseRun(url: string, port: number) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
    });
    const lhr = result?.lhr;
    if (lhr && !lhr.runtimeError) return lhr;
    const message = `lighthouse: ${lhr?.runtimeError?.message ?? 'no result'}`;
    if (attempt === ATTEMPTS) throw new Error(message);
    console.error(`${message} (attempt ${attempt} of ${ATTEMPTS}, running again)`);
  }
}

async function lighthouseRuns(url: string, label = ''): Promise<Run[]> {
  process.env.CHROME_PATH = CHROMIUM;
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS, logLevel: 'silent' });
  try {
    const runs: Run[] = [];
    for (let run = 0; run < RUNS; run++) {
      const lhr = await lighthouseRun(url, chrome.port);
      const audit = (id: string) => {
        const value = lhr.audits[id]?.numericValue;
        if (value === undefined) throw new Error(`lighthouse: no ${id}`);
        return value;
      };
      runs.push({
        score: (lhr.categories.performance?.score ?? Number.NaN) * 100,
        lcpMs: audit('largest-contentful-paint'),
        tbtMs: audit('total-blocking-time'),
        cls: audit('cumulative-layout-shift'),
        fcpMs: audit('first-contentful-paint'),
      });
      // For looking into a figure: BENCH_LIGHTHOUSE_REPORT=/tmp/lh keeps each run's report.
      const keep = process.env.BENCH_LIGHTHOUSE_REPORT;
      if (keep) await writeFile(`${keep}${label}-${run + 1}.json`, JSON.stringify(lhr));
    }
    return runs;
  } finally {
    chrome.kill();
  }
}

/** Gzipped bytes of every script the landing page loads. */
async function initialJavaScript(url: string): Promise<{ bytes: number; scripts: number }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS.slice(1) });
  try {
    const page = await browser.newPage();
    const sizes = new Map<string, Promise<number>>();
    page.on('response', (response) => {
      if (!response.url().endsWith('.js')) return;
      sizes.set(
        response.url(),
        response.body().then((body) => gzipSync(body, { level: 9 }).length),
      );
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    const bytes = (await Promise.all(sizes.values())).reduce((sum, size) => sum + size, 0);
    return { bytes, scripts: sizes.size };
  } finally {
    await browser.close();
  }
}

/** One busy process per core for the duration of `run`. */
async function withCpuHog<T>(run: () => Promise<T>): Promise<T> {
  const hogs = Array.from({ length: CORES }, (_, index) =>
    spawnNode(`hog-${index}`, [
      '-e',
      `const end = Date.now() + ${HOG_LIMIT_MS}; let x = 0; while (Date.now() < end) x += Math.sqrt(x + 1);`,
    ]),
  );
  try {
    return await run();
  } finally {
    await Promise.all(hogs.map((hog) => hog.stop()));
  }
}

export async function landing(): Promise<Figure[]> {
  const url = `${PUBLIC_URL}/`;
  // The page measured carries the admin's edited texts (the seed's), served in its HTML.
  const html = await (await fetch(url)).text();
  if (
    !html.includes('Frage 1: Was gilt für Teilnehmer') ||
    !html.includes('<strong>Einlass für Teilnehmer ab 8 Uhr</strong>')
  )
    throw new Error('the landing page does not carry the edited FAQ');
  const runs = await lighthouseRuns(url);
  const js = await initialJavaScript(url);
  const hogged = await withCpuHog(() => lighthouseRuns(url, '-hog'));
  const of = (pick: (run: Run) => number) => median(runs.map(pick));
  const all = (pick: (run: Run) => number, digits = 0) =>
    runs.map((run) => pick(run).toFixed(digits)).join(', ');
  return [
    {
      name: 'r5.landing.performance',
      value: of((run) => run.score),
      unit: 'score',
      budget: { op: '>=', limit: 98 },
      digits: 0,
      reference: `Lighthouse mobile, median of ${RUNS}: ${all((run) => run.score)}`,
    },
    {
      name: 'r5.landing.lcp',
      value: of((run) => run.lcpMs) / 1000,
      unit: 's',
      budget: { op: '<=', limit: 1.5 },
      reference: `runs ${all((run) => run.lcpMs / 1000, 2)} s; FCP ${(of((run) => run.fcpMs) / 1000).toFixed(2)} s`,
    },
    {
      name: 'r5.landing.tbt',
      value: of((run) => run.tbtMs),
      unit: 'ms',
      budget: { op: '<=', limit: 50 },
      digits: 0,
      reference: `runs ${all((run) => run.tbtMs)} ms`,
    },
    {
      name: 'r5.landing.cls',
      value: of((run) => run.cls),
      unit: 'score',
      budget: { op: '<=', limit: 0.05 },
      digits: 3,
      reference: `runs ${all((run) => run.cls, 3)}`,
    },
    {
      name: 'r5.landing.initial_js',
      value: js.bytes / 1024,
      unit: 'KB',
      budget: { op: '<=', limit: 100 },
      reference: `${js.scripts} scripts, gzip -9, loading / in Chromium`,
    },
    {
      name: 'r5.landing_hog.performance',
      value: median(hogged.map((run) => run.score)),
      unit: 'score',
      budget: { op: '>=', limit: 90 },
      digits: 0,
      reference: `with ${CORES} busy processes (one per core): ${hogged.map((run) => run.score.toFixed(0)).join(', ')}; LCP ${(median(hogged.map((run) => run.lcpMs)) / 1000).toFixed(2)} s, TBT ${median(hogged.map((run) => run.tbtMs)).toFixed(0)} ms`,
    },
  ];
}
