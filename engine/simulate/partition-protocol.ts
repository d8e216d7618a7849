/**
 * A serving partition spoken to in plain messages: typed arrays and records, nothing shared, so the partition can
 * live in another process (partition-process.ts) or, later, on another machine.
 *
 * The coordinator owns the review and everything between days; a partition owns serving the days of one range of
 * styles (serve-day.ts). Each side sends what it wrote that the other reads:
 * - `serve`: the coordinator's simulated stock of the range (arrivals, transfers sent, receipts and write-downs
 *   change it between days), the locations' selling flags, and when a style is traced the engine's latest rates;
 *   the partition serves the day and answers with its stock and its running sums.
 * - `state`, before a review: the engine's history of the range (its window rings, days in stock, cells ever
 *   active, units and value sold per SKU).
 * - `finish`: the actual levels at the end, and the traced style's values when it is in the range.
 *
 * A range's cells are packed location by location: SKUs [kFrom, kTo) of location 0, then of location 1, …
 */
import { serveDay, DAY_FIELDS, accumulators, type Accumulators, type ServeArrays } from './serve-day.js';
import { FIELDS } from './kpis.js';

type Typed = Float64Array | Float32Array | Int32Array | Uint8Array;
export type SkuRange = [number, number];
type SumFields = Record<(typeof FIELDS)[number], Float64Array>;

export type ToPartition =
  | { kind: 'init'; arrays: ServeArrays; L: number; K: number; W: number; range: SkuRange; styles: number }
  | { kind: 'serve'; day: number; head: number; sim: Float64Array; selling: Uint8Array; rate?: Float64Array }
  | { kind: 'state' }
  | { kind: 'finish' };

export interface PartitionState {
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

/** The range's values of a per-cell array (`per` values a cell), packed location by location. */
export function gather<T extends Typed>(source: T, L: number, K: number, [kFrom, kTo]: SkuRange, per = 1): T {
  const width = (kTo - kFrom) * per;
  const out = new (source.constructor as new (n: number) => T)(L * width);
  for (let l = 0; l < L; l++) out.set(source.subarray((l * K + kFrom) * per, (l * K + kTo) * per) as never, l * width);
  return out;
}

/** Writes packed range values back into a per-cell array. */
export function scatter<T extends Typed>(target: T, packed: T, L: number, K: number, [kFrom, kTo]: SkuRange, per = 1) {
  const width = (kTo - kFrom) * per;
  for (let l = 0; l < L; l++) target.set(packed.subarray(l * width, (l + 1) * width) as never, (l * K + kFrom) * per);
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
  return (m) => {
    try {
      if (m.kind === 'init') {
        init = m;
        acc = accumulators(m.L, m.styles, m.arrays.days);
        return { kind: 'ready' };
      }
      if (!init || !acc) throw new Error(`a partition got '${m.kind}' before 'init'`);
      const { arrays: a, L, K, W, range } = init;
      if (m.kind === 'serve') {
        scatter(a.sim, m.sim, L, K, range);
        a.selling.set(m.selling);
        if (m.rate) scatter(a.rate, m.rate, L, K, range);
        serveDay(a, L, K, W, m.day, m.head, range[0], range[1], acc);
        const n = DAY_FIELDS.length;
        return {
          kind: 'served',
          sim: gather(a.sim, L, K, range),
          sums: copySums(acc),
          daily: acc.daily.slice(m.day * n, (m.day + 1) * n),
          lowest: acc.lowest[0],
        };
      }
      if (m.kind === 'state') {
        return {
          kind: 'state',
          windowSales: gather(a.windowSales, L, K, range, W),
          windowInStock: gather(a.windowInStock, L, K, range, W),
          inStockDays: gather(a.inStockDays, L, K, range),
          everActive: gather(a.everActive, L, K, range),
          soldUnits: a.soldUnits.slice(range[0], range[1]),
          soldValue: a.soldValue.slice(range[0], range[1]),
        };
      }
      if (m.kind !== 'finish') throw new Error(`a partition cannot answer '${(m as { kind: unknown }).kind}'`);
      const traced = a.trace && a.trace.kFrom >= range[0] && a.trace.kTo <= range[1];
      return {
        kind: 'finished',
        actLevel: gather(a.actLevel, L, K, range),
        ...(traced ? { trace: a.trace!.values } : {}),
      };
    } catch (e) {
      return { kind: 'failed', message: (e as Error).stack ?? String(e) };
    }
  };
}
