/** Pure helpers: percentiles, budgets and the printed line of a figure. */

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
}

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

/** `name value unit budget pass|miss|info [reference]`, columns padded; the first five fields have no spaces. */
export function formatLines(figures: readonly Figure[]): string[] {
  const rows = figures.map((figure) => [
    figure.name,
    formatValue(figure.value, figure.digits),
    figure.unit,
    formatBudget(figure.budget),
    statusOf(figure),
    figure.reference ?? '',
  ]);
  const widths = [0, 1, 2, 3, 4].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((cell, column) => (column < 5 ? cell.padEnd(widths[column]!) : cell))
      .join('  ')
      .trimEnd(),
  );
}
