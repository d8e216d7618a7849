/**
 * A serving partition spoken to in plain messages: typed arrays and records, nothing shared, so the partition can
 * live in another process (partition-process.ts) or, later, on another machine.
 *
 * The coordinator owns the review and everything between days; a partition owns serving the days of one range of
 * styles (serve-day.ts). Each side sends what it wrote that the other reads:
 * - `serve`: the coordinator's simulated stock of the range (arrivals, transfers sent, receipts and write-downs
 *   change it between days), the locations' selling flags, and when a style is traced the engine's latest rates;
 *   the partition serves the day and answers with its stock and its running sums.
 * - `state`, before a review: the engine's history of the range (the window days served since the last review, days
 *   in stock, cells ever active, units and value sold per SKU).
 * - `finish`: the actual levels at the end, and the traced style's values when it is in the range.
 *
 * A partition holds its range's data alone (`rangeArrays`), in its own numbering: SKU k of the range is k − kFrom,
 * and its cells are the block of the range's SKUs (see recommend/state.ts), which is how a range's cells travel
 * too. Styles keep their numbers, so the partition's sums add up with the others'.
 */
import { serveDay, DAY_FIELDS, accumulators, type Accumulators, type ServeArrays } from './serve-day.js';
import { FIELDS } from './kpis.js';
import type { TraceBuffer } from './trace.js';

type Typed = Float64Array | Float32Array | Int32Array | Uint8Array;
export type SkuRange = [number, number];
type SumFields = Record<(typeof FIELDS)[number], Float64Array>;

export type ToPartition =
  | { kind: 'init'; arrays: ServeArrays; L: number; W: number; styles: number }
  | { kind: 'serve'; day: number; head: number; sim: Float64Array; selling: Uint8Array; rate?: Float64Array }
  | { kind: 'state' }
  | { kind: 'finish' };

export interface PartitionState {
  /** The ring slots served since the last review, and their values for each cell (packed cell by cell). */
  heads: number[];
  windowSales: Float32Array;
  windowInStock: Uint8Array;
  inStockDays: Int32Array;
  everActive: Uint8Array;
  soldUnits: Float64Array;
  soldValue: Float64Array;
}

export type FromPartition =
  | { kind: 'ready' }
  | { kind: 'served'; sim: Float64Array; sums: { sim: SumFields; act: SumFields }; daily: Float64Array; lowest: number }
  | ({ kind: 'state' } & PartitionState)
  | { kind: 'finished'; actLevel: Float64Array; trace?: Float64Array }
  | { kind: 'failed'; message: string };

/** The range's values of a per-cell array (`per` values a cell): one block, since a SKU's cells lie together. */
export function gather<T extends Typed>(source: T, L: number, _K: number, [kFrom, kTo]: SkuRange, per = 1): T {
  return source.slice(kFrom * L * per, kTo * L * per) as T;
}

/** Writes a range's values back into a per-cell array. */
export function scatter<T extends Typed>(target: T, packed: T, L: number, _K: number, [kFrom]: SkuRange, per = 1) {
  target.set(packed as never, kFrom * L * per);
}

/** The values of some slots of each cell's ring (`W` slots a cell), packed cell by cell. */
export function gatherSlots<T extends Typed>(
  source: T,
  L: number,
  _K: number,
  [kFrom, kTo]: SkuRange,
  W: number,
  heads: readonly number[],
): T {
  const out = new (source.constructor as new (n: number) => T)(L * (kTo - kFrom) * heads.length);
  let at = 0;
  for (let c = kFrom * L; c < kTo * L; c++) for (const h of heads) out[at++] = source[c * W + h];
  return out;
}

export function scatterSlots<T extends Typed>(
  target: T,
  packed: T,
  L: number,
  _K: number,
  [kFrom, kTo]: SkuRange,
  W: number,
  heads: readonly number[],
): void {
  let at = 0;
  for (let c = kFrom * L; c < kTo * L; c++) for (const h of heads) target[c * W + h] = packed[at++];
}

/** A range's rows of the actual days (rows in cell order within a day), renumbered to the range's cells. */
function rangeRows(
  dayStart: Int32Array,
  cell: Int32Array,
  values: Float64Array[],
  L: number,
  [kFrom, kTo]: SkuRange,
): { dayStart: Int32Array; cell: Int32Array; values: Float64Array[] } {
  const [first, end] = [kFrom * L, kTo * L];
  const inRange = (j: number) => cell[j] >= first && cell[j] < end;
  let n = 0;
  for (let j = 0; j < dayStart[dayStart.length - 1]; j++) if (inRange(j)) n++;
  const starts = new Int32Array(dayStart.length);
  const cells = new Int32Array(n);
  const kept = values.map(() => new Float64Array(n));
  let at = 0;
  for (let i = 0; i + 1 < dayStart.length; i++) {
    starts[i] = at;
    for (let j = dayStart[i]; j < dayStart[i + 1]; j++) {
      if (!inRange(j)) continue;
      cells[at] = cell[j] - first;
      for (let v = 0; v < values.length; v++) kept[v][at] = values[v][j];
      at++;
    }
  }
  starts[dayStart.length - 1] = at;
  return { dayStart: starts, cell: cells, values: kept };
}

/** What a partition needs to serve a range of SKUs, and nothing else, in the range's own numbering. */
export function rangeArrays(a: ServeArrays, L: number, K: number, W: number, range: SkuRange): ServeArrays {
  const [kFrom, kTo] = range;
  const actual = rangeRows(
    a.dayStart,
    a.actualCell,
    [a.actualEnd, a.actualOpening, a.actualSold, a.actualNet, a.actualRevenue, a.actualExtra],
    L,
    range,
  );
  const out = rangeRows(a.outStart, a.outCell, [a.outDemand], L, range);
  const [actualEnd, actualOpening, actualSold, actualNet, actualRevenue, actualExtra] = actual.values;
  const t = a.trace;
  const trace: TraceBuffer | undefined =
    t && t.kFrom >= kFrom && t.kTo <= kTo
      ? // Blank: the partition writes the served fields, the coordinator the rest, and the two are added at the end.
        { ...t, kFrom: t.kFrom - kFrom, kTo: t.kTo - kFrom, values: new Float64Array(t.values.length) }
      : undefined;
  return {
    dayStart: actual.dayStart,
    actualCell: actual.cell,
    actualEnd,
    actualOpening,
    actualSold,
    actualNet,
    actualRevenue,
    actualExtra,
    outStart: out.dayStart,
    outCell: out.cell,
    outDemand: out.values[0],
    styleOf: a.styleOf.slice(kFrom, kTo),
    // Styles keep their numbers; where their SKUs start moves with the range.
    styleStart: a.styleStart.map((k) => k - kFrom),
    salePrice: a.salePrice.slice(kFrom, kTo),
    cost: a.cost.slice(kFrom, kTo),
    soldUnits: a.soldUnits.slice(kFrom, kTo),
    soldValue: a.soldValue.slice(kFrom, kTo),
    selling: a.selling,
    stores: a.stores,
    closed: a.closed,
    days: a.days,
    sim: gather(a.sim, L, K, range),
    actLevel: gather(a.actLevel, L, K, range),
    rate: gather(a.rate, L, K, range),
    inStockDays: gather(a.inStockDays, L, K, range),
    everActive: gather(a.everActive, L, K, range),
    windowSales: gather(a.windowSales, L, K, range, W),
    windowInStock: gather(a.windowInStock, L, K, range, W),
    ...(trace ? { trace } : {}),
  };
}

/** Each side's sums as copies (a message must not hand over the partition's own arrays). */
function copySums(acc: Accumulators): { sim: SumFields; act: SumFields } {
  const copy = (f: SumFields) =>
    Object.fromEntries(FIELDS.map((k) => [k, Float64Array.from(f[k])])) as unknown as SumFields;
  return { sim: copy(acc.sim.f), act: copy(acc.act.f) };
}

/** The partition's side: answers each message. Transport-free: a process or a test feeds it. */
export function partitionServer(): (message: ToPartition) => FromPartition {
  let init: Extract<ToPartition, { kind: 'init' }> | undefined;
  let acc: Accumulators | undefined;
  // The ring slots written since the last review: only those travel.
  let heads = new Set<number>();
  return (m) => {
    try {
      if (m.kind === 'init') {
        init = m;
        acc = accumulators(m.L, m.styles, m.arrays.days);
        return { kind: 'ready' };
      }
      if (!init || !acc) throw new Error(`a partition got '${m.kind}' before 'init'`);
      const { arrays: a, L, W } = init;
      const K = a.styleOf.length;
      if (m.kind === 'serve') {
        a.sim.set(m.sim);
        a.selling.set(m.selling);
        if (m.rate) a.rate.set(m.rate);
        serveDay(a, L, K, W, m.day, m.head, 0, K, acc);
        heads.add(m.head);
        const n = DAY_FIELDS.length;
        return {
          kind: 'served',
          sim: a.sim.slice(),
          sums: copySums(acc),
          daily: acc.daily.slice(m.day * n, (m.day + 1) * n),
          lowest: acc.lowest[0],
        };
      }
      if (m.kind === 'state') {
        const slots = [...heads];
        heads = new Set();
        return {
          kind: 'state',
          heads: slots,
          windowSales: gatherSlots(a.windowSales, L, K, [0, K], W, slots),
          windowInStock: gatherSlots(a.windowInStock, L, K, [0, K], W, slots),
          inStockDays: a.inStockDays.slice(),
          everActive: a.everActive.slice(),
          soldUnits: a.soldUnits.slice(),
          soldValue: a.soldValue.slice(),
        };
      }
      if (m.kind !== 'finish') throw new Error(`a partition cannot answer '${(m as { kind: unknown }).kind}'`);
      return { kind: 'finished', actLevel: a.actLevel.slice(), ...(a.trace ? { trace: a.trace.values } : {}) };
    } catch (e) {
      return { kind: 'failed', message: (e as Error).stack ?? String(e) };
    }
  };
}
