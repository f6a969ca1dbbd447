import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFERENCE_SPEED, ROOT } from './settings.js';
import {
  formatBudget,
  formatLines,
  formatSpeed,
  formatValue,
  inReferenceUnits,
  mean,
  median,
  percentile,
  speedFactor,
  statusOf,
  type Speed,
} from './stats.js';

describe('percentile', () => {
  it('interpolates between closest ranks', () => {
    const values = [5, 1, 4, 2, 3];
    expect(percentile(values, 0)).toBe(1);
    expect(percentile(values, 100)).toBe(5);
    expect(median(values)).toBe(3);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2.5);
    expect(percentile([10, 20], 95)).toBeCloseTo(19.5);
  });

  it('refuses no values and ranks outside 0–100', () => {
    expect(() => percentile([], 50)).toThrow();
    expect(() => percentile([1], 101)).toThrow();
    expect(() => mean([])).toThrow();
  });

  it('p95 of 1..100 is 95.05', () => {
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        95,
      ),
    ).toBeCloseTo(95.05);
    expect(mean([1, 2, 3, 6])).toBe(3);
  });
});

describe('budgets', () => {
  it('pass, miss and info', () => {
    expect(statusOf({ value: 0.5, budget: { op: '>=', limit: 0.5 } })).toBe('pass');
    expect(statusOf({ value: 0.49, budget: { op: '>=', limit: 0.5 } })).toBe('miss');
    expect(statusOf({ value: 1.2, budget: { op: '<=', limit: 1.2 } })).toBe('pass');
    expect(statusOf({ value: 512, budget: { op: '<', limit: 512 } })).toBe('miss');
    expect(statusOf({ value: Number.NaN, budget: { op: '<', limit: 512 } })).toBe('miss');
    expect(statusOf({ value: 3 })).toBe('info');
    expect(formatBudget({ op: '>=', limit: 90 })).toBe('≥90');
    expect(formatBudget(undefined)).toBe('-');
  });
});

describe('lines', () => {
  it('keeps name value unit budget status as the first five fields', () => {
    const lines = formatLines([
      {
        name: 'r1.ratio',
        value: 0.6234,
        unit: 'x',
        budget: { op: '>=', limit: 0.5 },
        reference: 'api 1 ÷ plain 2',
      },
      { name: 'r2.admin_vehicles.p95', value: 123.4, unit: 'ms' },
    ]);
    expect(lines[0]!.split(/\s+/).slice(0, 5)).toEqual(['r1.ratio', '0.62', 'x', '≥0.5', 'pass']);
    expect(lines[0]).toMatch(/pass {2}api 1 ÷ plain 2$/);
    expect(lines[1]!.split(/\s+/)).toEqual(['r2.admin_vehicles.p95', '123', 'ms', '-', 'info']);
  });

  it('formats by magnitude unless digits are given', () => {
    expect(formatValue(1234.5)).toBe('1235');
    expect(formatValue(12.345)).toBe('12.3');
    expect(formatValue(0.0123)).toBe('0.01');
    expect(formatValue(0.0123, 3)).toBe('0.012');
  });
});

describe('budgets in reference-machine units', () => {
  const slow: Speed = { name: 'node:http', value: 2992, reference: 20862, unit: 'req/s' };
  const fast: Speed = { ...slow, value: 25_000 };

  it('the factor is reference ÷ here, rounded to two decimals, never below 1', () => {
    expect(speedFactor(slow)).toBe(6.97);
    expect(speedFactor({ value: 20862, reference: 20862 })).toBe(1);
    expect(speedFactor(fast)).toBe(1);
    expect(speedFactor({ value: 1 / 35, reference: 1 / 17.5 })).toBe(2);
    expect(() => speedFactor({ value: 0, reference: 1 })).toThrow();
    expect(() => speedFactor({ value: Number.NaN, reference: 1 })).toThrow();
  });

  it('scales an upper budget by the factor and judges the raw figure against it', () => {
    const p95 = { name: 'r6.status_to_inbox.p95', value: 1200, unit: 'ms' };
    const scaled = inReferenceUnits({ ...p95, budget: { op: '<=', limit: 250 } }, slow);
    expect(scaled.value).toBe(1200);
    expect(scaled.budget).toEqual({ op: '<=', limit: 1743 });
    expect(scaled.scale).toEqual({ factor: 6.97, budget: { op: '<=', limit: 250 }, speed: slow });
    expect(statusOf(scaled)).toBe('pass');
    expect(statusOf({ ...scaled, value: 1743 })).toBe('pass');
    expect(statusOf({ ...scaled, value: 1744 })).toBe('miss');
    // Rounded as printed: 5 s × 6.97 = 34.85 → 34.9.
    expect(inReferenceUnits({ ...p95, unit: 's', budget: { op: '<=', limit: 5 } }, slow).budget).toEqual({
      op: '<=',
      limit: 34.9,
    });
  });

  it('a faster machine keeps the reference budget', () => {
    const figure = inReferenceUnits(
      { name: 'r11.gate_spike.p99', value: 201, unit: 'ms', budget: { op: '<=', limit: 200 } },
      fast,
    );
    expect(figure.budget).toEqual({ op: '<=', limit: 200 });
    expect(statusOf(figure)).toBe('miss');
  });

  it('refuses to scale a lower budget', () => {
    expect(() =>
      inReferenceUnits({ name: 'r1.ratio', value: 1, unit: 'x', budget: { op: '>=', limit: 0.8 } }, slow),
    ).toThrow();
  });

  it('prints the raw figure, the scaled budget, the verdict and then the factor with its speed', () => {
    const figure = inReferenceUnits(
      {
        name: 'r2.admin_media.p95',
        value: 63.24,
        unit: 'ms',
        budget: { op: '<=', limit: 50 },
        reference: 'p50 40.1 ms',
      },
      slow,
    );
    const [line] = formatLines([figure]);
    expect(line!.split(/\s+/).slice(0, 5)).toEqual(['r2.admin_media.p95', '63.2', 'ms', '≤349', 'pass']);
    expect(line).toMatch(
      /pass {2}budget ≤50 ms × 6\.97 \(node:http 2992 req\/s here, 20862 on the reference machine\); p50 40\.1 ms$/,
    );
    expect(formatSpeed(fast)).toBe("node:http 25000 req/s, ×1.00 of the reference machine's 20862");
  });

  it("the reference speeds are the reference run's in the development guide", () => {
    const guide = readFileSync(path.join(ROOT, 'docs', 'development.md'), 'utf8');
    const run = guide.slice(guide.indexOf('Reference figures, `npm run bench`'));
    const figure = (name: string) =>
      new RegExp(`^${name.replaceAll('.', '\\.')} +([0-9.]+) `, 'm').exec(run)?.[1];
    expect(Number(figure('r9.landing_spike.plain_rps'))).toBe(REFERENCE_SPEED.nodeHttp);
    expect(Number(figure('r8.uploads.raw_rate'))).toBe(REFERENCE_SPEED.rawSharp);
    expect(Number(figure('r7.login.verify'))).toBe(REFERENCE_SPEED.argon2VerifyMs);
  });
});
