import { describe, expect, it } from 'vitest';
import { formatBudget, formatLines, formatValue, mean, median, percentile, statusOf } from './stats.js';

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
