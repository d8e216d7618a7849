/**
 * bench:growth's sizes and its table: the big set at 1×, 2× and 4× its stores and at 4× its SKUs, and what a
 * backtest of each cost, per location×SKU-day against the first size's.
 */
import type { BenchSize } from './big-workspace.js';
import type { MeasuredRun } from './backtest-runs.js';

export interface GrowthSize {
  /** How the size is picked (BENCH_GROWTH_SIZES) and named in the table. */
  key: string;
  size: BenchSize;
}

/** The sizes, the big set itself first: every ratio is to it. */
export const growthSizes = (big: BenchSize): GrowthSize[] => [
  { key: '1x', size: big },
  { key: '2x', size: { ...big, stores: 2 * big.stores } },
  { key: '4x', size: { ...big, stores: 4 * big.stores } },
  { key: '4x-skus', size: { ...big, skus: 4 * big.skus } },
];

/** Picks sizes by a comma-separated list of keys, all when it is unset; an unknown key is refused by name. */
export function pickedSizes(list: string | undefined, all: GrowthSize[]): GrowthSize[] {
  if (list === undefined) return all;
  return list
    .split(',')
    .filter(Boolean)
    .map((key) => {
      const found = all.find((s) => s.key === key);
      if (!found) throw new Error(`no size "${key}": one of ${all.map((s) => s.key).join(', ')}`);
      return found;
    });
}

/** A size's backtest as measured, or why it could not be. */
export type GrowthRow = GrowthSize &
  (
    | ({
        /** The period's first load, its actual days derived and kept, in a process of its own (none: kept before). */
        firstLoadMs?: number;
        firstLoadRssKb?: number;
        /** A run as every later one (the kept days loaded, the floor, the replay), as backtest-runs.ts measures it. */
      } & Pick<MeasuredRun, 'cells' | 'days' | 'loadMs' | 'simMs' | 'floorMs' | 'loadCpuMs' | 'simCpuMs' | 'maxRssKb'>)
    | { failed: string }
  );

export type MeasuredRow = Exclude<GrowthRow, { failed: string }>;

/** Wall time (the kept days loaded, then replayed) per location×SKU-day, in µs. */
export const costPerCellDay = (r: MeasuredRow): number => ((r.loadMs + r.simMs) * 1000) / (r.cells * r.days);

/** The same run's CPU time per location×SKU-day, in µs. */
export const cpuPerCellDay = (r: MeasuredRow): number => ((r.loadCpuMs + r.simCpuMs) * 1000) / (r.cells * r.days);

const s = (ms: number) => (ms / 1000).toFixed(1);
const en = (n: number) => n.toLocaleString('en');
const gib = (kb: number) => `${(kb / 2 ** 20).toFixed(2)} GiB`;

/** The table, as Markdown (the README's form): each cost also as a ratio to the first size's, when it ran. */
export function growthTable(rows: GrowthRow[]): string {
  const first = rows[0] && !('failed' in rows[0]) ? rows[0] : undefined;
  const ratio = (cost: (r: MeasuredRow) => number, r: MeasuredRow) =>
    first ? (cost(r) / cost(first)).toFixed(2) : '—';
  const to = rows[0]?.key ?? '1x';
  const columns = [
    'size',
    'stores × SKUs',
    'cells',
    'cell-days',
    'load s',
    'simulation s',
    'wall s',
    'peak RSS',
    'µs per cell-day',
    `ratio to ${to}`,
    'CPU s',
    'CPU µs per cell-day',
    `CPU ratio to ${to}`,
    'floor ns per cell-day',
    'first load s (peak RSS)',
  ];
  const lines = [`| ${columns.join(' | ')} |`, `|${'---|'.repeat(columns.length)}`];
  for (const r of rows) {
    const head = [r.key, `${en(r.size.stores)} × ${en(r.size.skus)}`];
    if ('failed' in r) {
      lines.push(`| ${[...head, r.failed].join(' | ')} |${' |'.repeat(columns.length - 3)}`);
      continue;
    }
    const cellDays = r.cells * r.days;
    const cells = [
      ...head,
      en(r.cells),
      `${(cellDays / 1e6).toFixed(0)} M`,
      s(r.loadMs),
      s(r.simMs),
      s(r.loadMs + r.simMs),
      gib(r.maxRssKb),
      costPerCellDay(r).toFixed(3),
      ratio(costPerCellDay, r),
      s(r.loadCpuMs + r.simCpuMs),
      cpuPerCellDay(r).toFixed(3),
      ratio(cpuPerCellDay, r),
      ((r.floorMs * 1e6) / cellDays).toFixed(1),
      r.firstLoadMs === undefined ? 'kept before' : `${s(r.firstLoadMs)} (${gib(r.firstLoadRssKb ?? 0)})`,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}
