/**
 * Runs of the sample generator held in memory for the tests: every file's records, the truth beside them and the
 * simulation's own stock day by day; and the checks several tests share (the stock identity, the truth's rows).
 */
import { expect } from 'vitest';
import { generate, MemorySink, TRUTH_DAILY, type GenerateResult, type Layout } from '../samples/generator/index.js';
import { getDataset } from '../engine/model/datasets.js';

export type Rec = Record<string, any>;
export const DAY = 86_400_000;

/** `Sales-0003.json` → `Sales`. */
export const endpointOf = (name: string) => name.replace(/(-\d{4})?\.json$/, '');

/** Every record of every file, by endpoint. */
export function records(files: Map<string, string>): Record<string, Rec[]> {
  const out: Record<string, Rec[]> = {};
  for (const [name, text] of files) {
    const ds = getDataset(endpointOf(name));
    (out[ds.name] ??= []).push(...(JSON.parse(text)[ds.envelope] as Rec[]));
  }
  return out;
}

export interface Run {
  result: GenerateResult;
  files: Map<string, string>;
  /** truth-daily.csv and truth-summary.json. */
  truth: Map<string, string>;
  data: Record<string, Rec[]>;
  layout: Layout;
  /** True on-hand at the end of each day, as the simulation held it. */
  onHand: Int32Array[];
}

export function run(input: Parameters<typeof generate>[0]): Run {
  const sink = new MemorySink();
  const truth = new MemorySink();
  const onHand: Int32Array[] = [];
  let layout!: Layout;
  const result = generate(
    input,
    sink,
    {
      start: (l) => (layout = l),
      dayEnd: (_day, state) => onHand.push(state.slice()),
    },
    truth,
  );
  return { result, files: sink.files, truth: truth.files, data: records(sink.files), layout, onHand };
}

/**
 * Replays the files per location × SKU in time order: a snapshot sets the level, a mutation adds, a sale
 * subtracts. At every event the level must be ≥ 0 and at every day's end it must equal the simulation's on-hand.
 */
/** `stockAt`: where a location's sales take their stock, when not its own (a webshop shipping from a warehouse). */
export function checkIdentity(r: Run, days: number, startMs: number, stockAt: Record<string, string> = {}) {
  const nSku = r.layout.skuIds.length;
  const loc = new Map(r.layout.locationIds.map((id, i) => [id, i]));
  const sku = new Map(r.layout.skuIds.map((id, i) => [id, i]));
  const events = new Map<number, [number, 'set' | 'add', number][]>();
  const add = (l: string, k: string, t: string, kind: 'set' | 'add', q: number) => {
    expect(loc.has(l) && sku.has(k), `${l}/${k} is in the layout`).toBe(true);
    const p = loc.get(l)! * nSku + sku.get(k)!;
    let list = events.get(p);
    if (!list) events.set(p, (list = []));
    list.push([Date.parse(t), kind, q]);
  };
  for (const s of r.data.Stock) add(s.locationId, s.skuId, s.stockDateTime, 'set', s.quantity);
  for (const m of r.data.StockMutations) add(m.locationId, m.skuId, m.mutationDateTime, 'add', m.quantity);
  for (const s of r.data.Sales)
    for (const l of s.salesLines)
      add(stockAt[s.locationId] ?? s.locationId, l.skuId, s.salesDateTime, 'add', -l.quantitySold);

  expect(r.onHand).toHaveLength(days);
  let checked = 0,
    mismatches = 0,
    negatives = 0,
    moves = 0;
  for (let p = 0; p < r.layout.locationIds.length * nSku; p++) {
    const list = (events.get(p) ?? []).sort((a, b) => a[0] - b[0] || (a[1] === 'set' ? -1 : 1));
    let level = 0,
      i = 0;
    for (let d = 0; d < days; d++) {
      const end = startMs + (d + 1) * DAY;
      for (; i < list.length && list[i][0] < end; i++) {
        const [, kind, q] = list[i];
        level = kind === 'set' ? q : level + q;
        if (level < 0) negatives++;
        if (kind === 'add') moves++;
      }
      if (r.onHand[d][p] < 0) negatives++;
      if (level !== r.onHand[d][p]) mismatches++;
      checked++;
    }
  }
  expect(mismatches).toBe(0);
  expect(negatives).toBe(0);
  expect(checked).toBe(days * r.layout.locationIds.length * nSku);
  expect(moves).toBeGreaterThan(500);
  expect(r.onHand.some((day) => day.some((q) => q > 0))).toBe(true);
}

/** truth-daily.csv as rows. */
export function truthRows(r: Run) {
  const [header, ...lines] = r.truth.get(TRUTH_DAILY)!.trimEnd().split('\n');
  expect(header).toBe('date,locationId,carriedDays,stockOutDays,demand,sales,lost');
  return lines.map((line) => {
    const [date, locationId, ...n] = line.split(',');
    const [carriedDays, stockOutDays, demand, sales, lost] = n.map(Number);
    return { date, locationId, carriedDays, stockOutDays, demand, sales, lost };
  });
}
