/**
 * infra/monitoring against the code: every metric an alert rule or a dashboard panel names is one
 * the api or the worker registers (a renamed metric fails here, not silently in production), with
 * labels and label values the code gives it; the alerts are there. Where Prometheus's
 * promtool is installed, the rules are also checked and their unit tests run (rules.test.yml).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HttpMetrics } from '@schlosstreffen/api/metrics';
import { WorkerMetrics, type SharedState } from '@schlosstreffen/worker/metrics';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './settings.js';

const MONITORING = path.join(ROOT, 'infra', 'monitoring');

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const rules = (
  parse(readFileSync(path.join(MONITORING, 'prometheus', 'rules.yml'), 'utf8')) as {
    groups: Array<{ rules: Rule[] }>;
  }
).groups.flatMap((group) => group.rules);

interface Panel {
  title: string;
  targets?: Array<{ expr: string }>;
}
const dashboard = JSON.parse(
  readFileSync(path.join(MONITORING, 'grafana', 'dashboards', 'schlosstreffen.json'), 'utf8'),
) as { panels: Panel[] };

/** Every series name the processes expose, with the labels and label values seen on it. */
async function exposed(): Promise<Map<string, { labels: Set<string>; values: Map<string, Set<string>> }>> {
  const worker = new WorkerMetrics();
  // Shared state that is never reached: the gauges are named all the same, without values.
  const unreachable = () => {
    throw new Error('not in this test');
  };
  worker.watch({
    queues: [],
    em: { fork: unreachable },
    redis: { mget: unreachable },
    prefix: 'test',
  } as unknown as SharedState);
  const series = new Map<string, { labels: Set<string>; values: Map<string, Set<string>> }>();
  for (const registry of [new HttpMetrics().registry, worker.registry]) {
    const labelNames = new Map(
      registry
        .getMetricsAsArray()
        .map((metric) => [metric.name, (metric as unknown as { labelNames?: string[] }).labelNames ?? []]),
    );
    for (const { name, type, values } of await registry.getMetricsAsJSON()) {
      const names =
        String(type) === 'histogram'
          ? [`${name}_bucket`, `${name}_count`, `${name}_sum`]
          : String(type) === 'summary'
            ? [name, `${name}_count`, `${name}_sum`]
            : [name];
      const seen = new Map<string, Set<string>>();
      for (const value of values) {
        for (const [label, labelValue] of Object.entries(value.labels)) {
          seen.set(label, (seen.get(label) ?? new Set()).add(String(labelValue)));
        }
      }
      for (const each of names) {
        series.set(each, {
          labels: new Set([...(labelNames.get(name) ?? []), 'le', 'quantile']),
          values: seen,
        });
      }
    }
  }
  return series;
}

/** The metric selectors of a PromQL expression: name, and the label matchers in its braces. */
function selectors(expr: string): Array<{ name: string; matchers: Array<[string, string, string]> }> {
  const found: Array<{ name: string; matchers: Array<[string, string, string]> }> = [];
  for (const match of expr.matchAll(/\b(schlosstreffen_\w+|up)\b(\{([^}]*)\})?/g)) {
    const matchers = [...(match[3] ?? '').matchAll(/(\w+)\s*(=~|!~|!=|=)\s*"([^"]*)"/g)].map(
      (m) => [m[1]!, m[2]!, m[3]!] as [string, string, string],
    );
    found.push({ name: match[1]!, matchers });
  }
  return found;
}

const expressions = [
  ...rules.map((rule) => [`rule ${rule.alert ?? rule.record}`, rule.expr] as const),
  ...dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => [`panel '${panel.title}'`, target.expr] as const),
  ),
];

describe('infra/monitoring', () => {
  it('names only metrics, labels and label values the code registers', async () => {
    const series = await exposed();
    // Labels Prometheus adds to every scraped series.
    const targetLabels = new Set(['job', 'instance']);
    const problems: string[] = [];
    let named = 0;
    for (const [where, expr] of expressions) {
      for (const { name, matchers } of selectors(expr)) {
        named += 1;
        if (name === 'up') continue;
        const known = series.get(name);
        if (!known) {
          problems.push(`${where}: ${name} is not registered`);
          continue;
        }
        for (const [label, op, value] of matchers) {
          if (targetLabels.has(label)) continue;
          if (!known.labels.has(label)) problems.push(`${where}: ${name} has no label ${label}`);
          // A value the code sets on every start (the mail fates) must be spelled as the code does.
          const values = known.values.get(label);
          if (values && op === '=' && !values.has(value)) {
            problems.push(`${where}: ${name}{${label}="${value}"} never occurs (${[...values].join(', ')})`);
          }
          if (values && op === '=~') {
            for (const alternative of value.split('|')) {
              if (!values.has(alternative))
                problems.push(`${where}: ${name}{${label}=~…${alternative}} never occurs`);
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(named).toBeGreaterThan(20);
    // The figures are the ones the files read.
    for (const name of [
      'schlosstreffen_http_request_duration_seconds_bucket',
      'schlosstreffen_mails_total',
      'schlosstreffen_job_duration_seconds_count',
      'schlosstreffen_job_failures_total',
      'schlosstreffen_queue_jobs',
      'schlosstreffen_outbox_oldest_pending_seconds',
      'schlosstreffen_last_backup_timestamp_seconds',
      'schlosstreffen_backup_last_failure_timestamp_seconds',
    ]) {
      expect(series.has(name), name).toBe(true);
      expect(
        expressions.some(([, expr]) => selectors(expr).some((selector) => name.startsWith(selector.name))),
        name,
      ).toBe(true);
    }
  });

  it('alerts on what the issue names, each with a severity and a summary', () => {
    const alerts = new Map(rules.map((rule) => [rule.alert, rule]));
    for (const [alert, metric] of [
      ['OutboxLagging', 'schlosstreffen_outbox_oldest_pending_seconds'],
      ['MailsFailed', 'schlosstreffen_mails_total'],
      ['QueueStuck', 'schlosstreffen_queue_jobs'],
      ['HighServerErrorRate', 'schlosstreffen_http_request_duration_seconds_count'],
      ['NoRecentBackup', 'schlosstreffen_last_backup_timestamp_seconds'],
      ['ErasureJournalLagging', 'schlosstreffen_erasure_journal_lag_seconds'],
    ] as const) {
      expect(alerts.get(alert)?.expr, alert).toContain(metric);
    }
    // The shared-state gauges come from every worker alike: the rules take their max.
    for (const rule of rules) {
      for (const gauge of [
        'outbox_oldest_pending_seconds',
        'last_backup_timestamp_seconds',
        'erasure_journal_lag_seconds',
      ]) {
        if (rule.expr.includes(gauge))
          expect(rule.expr, rule.alert).toMatch(new RegExp(`max\\(schlosstreffen_${gauge}\\)`));
      }
      expect(rule.labels?.severity, rule.alert).toMatch(/^(warning|critical)$/);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
    }
  });

  const promtool = spawnSync('promtool', ['--version']).status === 0;
  it.skipIf(!promtool)('passes promtool: the rules check and their unit tests (rules.test.yml)', () => {
    const cwd = path.join(MONITORING, 'prometheus');
    const run = (...args: string[]) => execFileSync('promtool', args, { cwd, encoding: 'utf8' });
    expect(run('check', 'rules', 'rules.yml')).toContain('SUCCESS');
    expect(run('test', 'rules', 'rules.test.yml')).toContain('SUCCESS');
  });
});
