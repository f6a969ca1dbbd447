/**
 * Pure helpers: percentiles, budgets (in reference-machine units where they are absolute) and the
 * printed line of a figure.
 */

/** The p-th percentile (0–100) with linear interpolation between closest ranks. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of no values');
  if (p < 0 || p > 100) throw new Error(`percentile ${p} is not within 0–100`);
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export const median = (values: readonly number[]) => percentile(values, 50);

export const mean = (values: readonly number[]) => {
  if (values.length === 0) throw new Error('mean of no values');
  return values.reduce((sum, value) => sum + value, 0) / values.length;
};

export type BudgetOp = '>=' | '<=' | '<';

export interface Budget {
  op: BudgetOp;
  limit: number;
}

export interface Figure {
  /** Dotted name, e.g. r1.public_list.ratio. */
  name: string;
  value: number;
  unit: string;
  budget?: Budget;
  /** What the value compares to, measured in the same run. */
  reference?: string;
  /** Decimals printed; chosen from the magnitude when absent. */
  digits?: number;
  /** Set when `budget` is the reference machine's scaled to this one's speed (`inReferenceUnits`). */
  scale?: Scale;
}

/** This machine's speed at one kind of work, as a rate, beside the reference machine's. */
export interface Speed {
  /** What ran, e.g. `node:http`. */
  name: string;
  value: number;
  /** The same on the reference machine. */
  reference: number;
  unit: string;
}

export interface Scale {
  /** How many times slower this machine is at the work: at least 1. */
  factor: number;
  /** The budget on the reference machine. */
  budget: Budget;
  speed: Speed;
}

/**
 * reference ÷ here, rounded to the two decimals printed, never below 1: a machine slower than the
 * reference gets that much more time, a faster one keeps the reference budget.
 */
export function speedFactor(speed: Pick<Speed, 'value' | 'reference'>): number {
  if (!(speed.value > 0) || !Number.isFinite(speed.value)) {
    throw new Error(`speed ${speed.value} is not a rate`);
  }
  return Math.max(1, Number((speed.reference / speed.value).toFixed(2)));
}

/**
 * A figure whose budget is an upper bound in reference-machine units (a time), judged here against
 * that budget × the factor of this machine's speed, rounded as printed.
 */
export function inReferenceUnits(figure: Figure & { budget: Budget }, speed: Speed): Figure {
  if (figure.budget.op === '>=') throw new Error(`${figure.name}: only an upper budget scales`);
  const factor = speedFactor(speed);
  return {
    ...figure,
    budget: { op: figure.budget.op, limit: Number(formatValue(figure.budget.limit * factor)) },
    scale: { factor, budget: figure.budget, speed },
  };
}

/** `node:http 2992 req/s, ×6.97 of the reference machine's 20862`. */
export const formatSpeed = (speed: Speed) =>
  `${speed.name} ${formatValue(speed.value)} ${speed.unit}, ×${speedFactor(speed).toFixed(2)} of the reference machine's ${formatValue(speed.reference)}`;

/** `≤50 ms × 6.97 (node:http 2992 req/s here, 20862 on the reference machine)`. */
export const formatScale = ({ budget, factor, speed }: Scale, unit: string) =>
  `${formatBudget(budget)} ${unit} × ${factor.toFixed(2)} (${speed.name} ${formatValue(speed.value)} ${speed.unit} here, ${formatValue(speed.reference)} on the reference machine)`;

export type Status = 'pass' | 'miss' | 'info';

export function statusOf(figure: Pick<Figure, 'value' | 'budget'>): Status {
  const { budget, value } = figure;
  if (!budget) return 'info';
  if (!Number.isFinite(value)) return 'miss';
  const ok =
    budget.op === '>='
      ? value >= budget.limit
      : budget.op === '<='
        ? value <= budget.limit
        : value < budget.limit;
  return ok ? 'pass' : 'miss';
}

const OP_SIGN: Record<BudgetOp, string> = { '>=': '≥', '<=': '≤', '<': '<' };

export const formatBudget = (budget: Budget | undefined) =>
  budget ? `${OP_SIGN[budget.op]}${budget.limit}` : '-';

/** Enough decimals to read the figure: 2 below 10, 1 below 100, none above. */
export function formatValue(value: number, digits?: number): string {
  if (!Number.isFinite(value)) return String(value);
  const decimals = digits ?? (Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2);
  return value.toFixed(decimals);
}

/** Rounded as printed, for the JSON. */
export const roundedValue = (figure: Figure) => Number(formatValue(figure.value, figure.digits));

/** What the line says after the status: how a scaled budget came about, then the reference. */
const explain = (figure: Figure) =>
  [figure.scale && `budget ${formatScale(figure.scale, figure.unit)}`, figure.reference]
    .filter(Boolean)
    .join('; ');

/**
 * `name value unit budget pass|miss|info [reference]`, columns padded; the first five fields have no
 * spaces. A scaled budget is printed as applied; the reference names the reference machine's.
 */
export function formatLines(figures: readonly Figure[]): string[] {
  const rows = figures.map((figure) => [
    figure.name,
    formatValue(figure.value, figure.digits),
    figure.unit,
    formatBudget(figure.budget),
    statusOf(figure),
    explain(figure),
  ]);
  const widths = [0, 1, 2, 3, 4].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column < 5 ? cell.padEnd(widths[column]!) : cell))
      .join('  ')
      .trimEnd(),
  );
}
