/**
 * bench:arrow — two large tables as the admin API sends them to the screens: 100,000 transfer lines (Transfers) and
 * a run's breakdown by style for 5,000 styles (Backtest), as JSON and as an Arrow IPC stream (engine/server/arrow.ts):
 * bytes on the wire and the time to decode them back into the rows the screen reads (src-renderer/src/arrow-rows.ts).
 * The rows are made up, shaped like a large run's (100 stores, 5,000 SKUs, reasons in words).
 */
import { tableFromIPC } from 'apache-arrow';
import { columnsOf, PROPOSAL_COLUMNS, rowsToArrow, type ColumnKind } from '../../engine/server/arrow.js';
import type { ProposalRow } from '../../engine/service/transfers.js';
import type { GroupKpis } from '../../engine/simulate/simulate.js';
import { rowsFromArrow } from '../../src-renderer/src/arrow-rows.js';
import { machine } from './machine.js';

const N = 100_000;
const TYPES = ['Replenishment', 'Redistribution', 'InitialDistribution'] as const;
const rows: ProposalRow[] = Array.from({ length: N }, (_, i) => {
  const store = `ST-${String((i * 7919) % 100).padStart(3, '0')}`;
  const sku = `IT${10000 + ((i * 104729) % 1000)}-BLK-${['S', 'M', 'L', 'XL', 'XXL'][i % 5]}`;
  const type = TYPES[i % 3];
  return {
    referenceId: `${type.slice(0, 2).toUpperCase()}-${i.toString(36).padStart(8, '0')}`,
    runId: 'run-000042',
    transferType: type,
    fromLocationId: i % 3 === 1 ? `ST-${String((i * 31) % 100).padStart(3, '0')}` : 'WH-01',
    toLocationId: store,
    skuId: sku,
    styleId: sku.replace(/-[^-]+$/, ''),
    quantity: 1 + (i % 12),
    reason:
      `below target at ${store} (on hand ${i % 4}, target ${4 + (i % 9)}; ` +
      `demand ${((i % 17) / 10).toFixed(2)}/day over 14 days at 90% service)`,
    details: { onHand: i % 4, target: 4 + (i % 9), demandPerDay: (i % 17) / 10 },
  };
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(f: () => void, runs = 7): number {
  const ms: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

/** A side's KPIs for one style: every field a real run gives, some rates null as a style without demand has them. */
function side(i: number, k: number) {
  const v = (n: number) => Math.round(((i * 7919 + k * 104729 + n * 31) % 100_000) / 7) / 10;
  const stock = { inventoryUnits: v(1), inventoryValue: v(2), daysOfCover: v(3) };
  return {
    carriedDays: v(4),
    stockOutDays: v(5),
    inStockRate: i % 50 === 0 ? null : v(6) / 1e4,
    demand: v(7),
    estimatedDemand: v(8),
    sales: v(9),
    returns: v(10),
    netSales: v(11),
    salesValue: v(12),
    lostSales: v(13),
    fillRate: i % 50 === 0 ? null : v(14) / 1e4,
    inventoryUnits: v(15),
    warehouseInventoryUnits: v(16),
    warehouse: stock,
    network: stock,
  };
}
const STYLES = 5_000;
const groups = Array.from({ length: STYLES }, (_, i) => ({
  id: `IT${10000 + i}-BLK`,
  simulated: side(i, 1),
  actual: side(i, 2),
})) as unknown as GroupKpis[];

const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;

/** One table both ways: sizes, decode to the screen's rows (checked equal to the JSON's), encode. */
function compare<T extends object>(label: string, rows: T[], key: string, columns: Record<string, ColumnKind>) {
  const json = new TextEncoder().encode(JSON.stringify({ [key]: rows, total: rows.length }));
  const arrow = rowsToArrow(rows, columns);
  const decoder = new TextDecoder();
  let fromJson: T[] = [];
  let fromArrow: T[] = [];
  const jsonMs = time(() => {
    fromJson = (JSON.parse(decoder.decode(json)) as Record<string, T[]>)[key];
  });
  const arrowMs = time(() => {
    fromArrow = rowsFromArrow<T>(tableFromIPC(arrow));
  });
  const arrowColumnsMs = time(() => {
    const table = tableFromIPC(arrow);
    if (table.numRows !== rows.length) throw new Error('rows lost');
  });
  if (JSON.stringify(fromArrow) !== JSON.stringify(fromJson)) throw new Error(`${label}: Arrow rows differ from JSON`);
  const encodeMs = time(() => rowsToArrow(rows, columns), 3);
  const jsonEncodeMs = time(() => JSON.stringify({ [key]: rows, total: rows.length }), 3);
  console.log(`${label}`);
  console.log(
    `  JSON:  ${mb(json.length)}, decode (UTF-8 + JSON.parse) ${jsonMs.toFixed(0)} ms; ` +
      `encode ${jsonEncodeMs.toFixed(0)} ms`,
  );
  console.log(
    `  Arrow: ${mb(arrow.length)} (${((arrow.length / json.length) * 100).toFixed(0)} % of JSON), ` +
      `decode to rows ${arrowMs.toFixed(0)} ms, to columns ${arrowColumnsMs.toFixed(1)} ms; ` +
      `encode ${encodeMs.toFixed(0)} ms`,
  );
}

console.log(machine());
console.log('bench:arrow');
compare(`${N.toLocaleString('en')} transfer lines`, rows, 'proposals', PROPOSAL_COLUMNS);
compare(`a breakdown by style, ${STYLES.toLocaleString('en')} styles`, groups, 'groups', columnsOf(groups[0]));
