import { transferRows } from '../engine/simulate/simulated-transfer.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspace } from './demo-workspace.js';
import { replayStyle, simulate, type SimulationResult } from '../engine/simulate/simulate.js';
import { simulatePartitioned } from '../engine/simulate/partitioned.js';
import { STYLE_DAY_FIELDS, styleDayValue, type StyleDayField } from '../engine/simulate/style-days.js';
import { CELL_DAY_FIELDS, CELL_FIELDS, CF, type CellDayField, type StyleTrace } from '../engine/simulate/trace.js';
import type { BacktestInput } from '../engine/simulate/input.js';
import { OUTCOMES } from '../engine/recommend/outcome.js';
import { resolveSettings, type Settings, type SettingsOverride } from '../engine/recommend/settings.js';
import { loadBacktestInput } from '../engine/inputs/backtest-input.js';
import { Workbench } from '../engine/service/workbench.js';
import { backtestInput, sites, spliceDays, type ActualRow, type StateSpec } from './engine-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'wb-drill-'));
const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;
// Rationing off: the warehouse's 10 units below cannot last four weeks, and rationed the store would get 7 of them
// (test/engine.test.ts); this file follows the days through a run, with every unit sent.
const settings = (o: SettingsOverride = {}) =>
  resolveSettings({}, { redistribution: { enabled: false }, replenishment: { shortageHorizonDays: 0 }, ...o });

/** A style's series over the days done. */
const styleSeries = (r: SimulationResult, style: number, field: StyleDayField) =>
  Array.from({ length: r.daysDone }, (_, i) => styleDayValue(r.styleDays, i, style, field));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** One traced cell's series (`l`: location index, `k`: SKU index within the style). */
function cellSeries(t: StyleTrace, l: number, k: number, field: CellDayField): number[] {
  const base = (l * (t.kTo - t.kFrom) + k) * t.days;
  return Array.from({ length: t.daysDone }, (_, i) => t.values[(base + i) * CELL_FIELDS + CF[field]]);
}

/** The traced cells' values of a field on each day, added up over the style. */
function traceTotals(t: StyleTrace, locations: number, field: CellDayField): number[] {
  const out = new Array<number>(t.daysDone).fill(0);
  for (let l = 0; l < locations; l++) {
    for (let k = 0; k < t.kTo - t.kFrom; k++) cellSeries(t, l, k, field).forEach((v, i) => (out[i] += v));
  }
  return out;
}

const tee = {
  id: 'TEE',
  category: 'TEES',
  skus: [
    { id: 'TEE-M', size: 'M', price: 20 },
    { id: 'TEE-L', size: 'L', price: 20 },
  ],
};

describe('a run per style and day', () => {
  // One store and a warehouse: the store sells one M a day, runs out on day 2 (with L still on the shelf) and
  // gets an actual delivery of 5 on day 3 that is not replayed (no mutation); the warehouse's 10 M go to the
  // store on day 0 and arrive two days later; a correction of +3 L lands at the store on day 1.
  const spec: StateSpec = {
    locations: sites({ WH: 'warehouse', S1: 'store' }),
    styles: [tee],
    cells: { 'S1/TEE-M': { onHand: 2, sales: 1 }, 'S1/TEE-L': { onHand: 5 }, 'WH/TEE-M': { onHand: 10 } },
  };
  const rows: ActualRow[] = [
    { day: 0, cell: 'S1/TEE-M', end: 1, open: 2, sold: 1 },
    { day: 1, cell: 'S1/TEE-M', end: 0, open: 1, sold: 1 },
    { day: 1, cell: 'S1/TEE-L', end: 8, open: 8, mutations: 3 },
    { day: 3, cell: 'S1/TEE-M', end: 5, open: 5 },
  ];
  // The history's demand: beyond the 1 M sold on day 1 (it sold out), and on day 2 (carried, none on hand).
  // In this world a transfer takes two days, whatever the engine plans with.
  const input = () => backtestInput(spec, 4, rows, [], { transitDays: 2 });
  const beyond = () => input().actual.extra[input().actual.dayStart[1]];
  const out = () => input().out.demand[0];

  const styleDaysTitle =
    "counts what the style did each day: demand, sales, lost sales, stock, receipts and the engine's transfers";
  it(styleDaysTitle, async () => {
    expect(Array.from(input().out.dayStart)).toEqual([0, 0, 0, 1, 1]);
    const [e1, e2] = [beyond(), out()];
    expect(e1).toBeGreaterThan(0);
    expect(e2).toBeGreaterThan(0);
    const r = await simulate(input(), settings({ defaults: { leadTimeDays: 2 } }));
    const s = (f: StyleDayField) => styleSeries(r, 0, f);
    expect(s('simTransfersOut')).toEqual([10, 0, 0, 0]);
    expect(s('simTransfersIn')).toEqual([0, 0, 10, 0]);
    expect(s('receipts')).toEqual([0, 3, 0, 0]);
    // Day 1: M sells its last unit, the demand beyond it is lost on both sides. Day 2: M is out in fact; the
    // transfer that just arrived meets the estimated demand.
    const close = (got: number[], want: number[]) =>
      got.forEach((v, i) => expect(v, `day ${i}`).toBeCloseTo(want[i], 9));
    close(s('demand'), [1, 1 + e1, e2, 0]);
    close(s('estimatedDemand'), [0, e1, e2, 0]);
    close(s('simSales'), [1, 1, e2, 0]);
    expect(s('actSales')).toEqual([1, 1, 0, 0]);
    close(s('simLostSales'), [0, e1, 0, 0]);
    close(s('actLostSales'), [0, e1, e2, 0]);
    expect(s('actStockOutDays')).toEqual([0, 0, 1, 0]);
    expect(s('simStockOutDays')).toEqual([0, 0, 0, 0]);
    expect(s('carriedDays')).toEqual([2, 2, 2, 2]);
    // End of day at the store: 1 M + 5 L, then 8 L, then the warehouse's 10 M less the day's sales …
    expect(s('simInventoryUnits').map((v) => Math.round(v * 1e9) / 1e9)).toEqual(
      [6, 8, 8 + 10 - e2, 8 + 10 - e2].map((v) => Math.round(v * 1e9) / 1e9),
    );
    expect(s('simWarehouseUnits')).toEqual([0, 0, 0, 0]);
    // … and in fact the warehouse's 10 M stay there, the store gets 5 M on day 3.
    expect(s('actInventoryUnits')).toEqual([6, 8, 8, 13]);
    expect(s('actWarehouseUnits')).toEqual([10, 10, 10, 10]);
    // The engine's estimate for the style (M's rate and L's, at the store), from day 0's review on.
    expect(s('demandEstimate')[0]).toBeGreaterThan(0);
    expect(new Set(s('demandEstimate')).size).toBe(1);
  });

  it('traces each cell of a style day by day, with the transfers and their reasons', async () => {
    const [e1, e2] = [beyond(), out()];
    const r = await simulate(input(), settings({ defaults: { leadTimeDays: 2 } }), { trace: { style: 0 } });
    const t = r.trace!;
    expect(t).toMatchObject({ style: 0, kFrom: 0, kTo: 2, daysDone: 4 });
    const m = (f: CellDayField) => cellSeries(t, 1, 0, f);
    const est = m('demandEstimate')[0];
    expect(est).toBeGreaterThan(0);
    expect(m('demandEstimate')).toEqual([est, est, est, est]);
    expect(m('simStock')).toEqual([1, 0, 10 - e2, 10 - e2]);
    expect(m('actStock')).toEqual([1, 0, 0, 5]);
    expect(m('demand')).toEqual([1, 1 + e1, e2, 0]);
    expect(m('estimatedDemand')).toEqual([0, e1, e2, 0]);
    expect(m('simSales')).toEqual([1, 1, e2, 0]);
    expect(m('simLostSales')).toEqual([0, e1, 0, 0]);
    expect(m('actLostSales')).toEqual([0, e1, e2, 0]);
    expect(m('transfersIn')).toEqual([0, 0, 10, 0]);
    expect(m('actInStock')).toEqual([1, 1, 0, 1]);
    expect(m('carried')).toEqual([1, 1, 1, 1]);
    expect(cellSeries(t, 0, 0, 'transfersOut')).toEqual([10, 0, 0, 0]);
    expect(cellSeries(t, 0, 0, 'simStock')).toEqual([0, 0, 0, 0]);
    expect(cellSeries(t, 0, 0, 'carried')).toEqual([0, 0, 0, 0]);
    expect(cellSeries(t, 1, 1, 'receipts')).toEqual([0, 3, 0, 0]);
    expect(t.transfers).toEqual([
      expect.objectContaining({
        day: r.fromDay,
        arrivalDay: r.fromDay + 2,
        transferType: 'Replenishment',
        fromLocationId: 'WH',
        toLocationId: 'S1',
        skuId: 'TEE-M',
        quantity: 10,
        referenceId: transferRows(r.transfers)[0].referenceId,
        reason: expect.stringMatching(/below target/),
      }),
    ]);
    expect(t.locationKinds).toEqual(['warehouse', 'store']);
    // Each review day says what the engine did for the cell: day 0 sent S1 its M (below target, the warehouse had
    // it); the L it holds five of, selling none, is at its target; the warehouse is no seller.
    const outcome = (l: number, k: number) => cellSeries(t, l, k, 'outcome').map((x) => (x ? OUTCOMES[x - 1] : ''));
    expect(outcome(1, 0)).toEqual(['sent', '', '', '']);
    expect(outcome(1, 1)[0]).toBe('at or above its target');
    expect(m('target')[0]).toBeGreaterThan(0);
    expect(outcome(0, 0)).toEqual(['', '', '', '']);
    // Tracing changes nothing the run decides or counts.
    const plain = await simulate(input(), settings({ defaults: { leadTimeDays: 2 } }));
    expect({ ...r, trace: undefined }).toEqual({ ...plain, trace: undefined });
  });

  it('names each location as the replay ended: one counted as a warehouse sells from its first sale', async () => {
    const r = await simulate(
      backtestInput(
        {
          locations: sites({ WH: 'warehouse', NEW: 'warehouse' }),
          styles: [tee],
          cells: { 'WH/TEE-M': { onHand: 40 }, 'NEW/TEE-M': { onHand: 3 } },
        },
        6,
        [{ day: 3, cell: 'NEW/TEE-M', end: 2, open: 3, sold: 1 }],
      ),
      settings(),
      { trace: { style: 0 } },
    );
    expect(r.trace!.locationKinds).toEqual(['warehouse', 'store']);
    // The history says it sells (it sold on day 3), so it carried the SKU all along; the engine learns it on day 3.
    expect(cellSeries(r.trace!, 1, 0, 'carried')).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it('never looks ahead: changing every later day changes no earlier day of the style or its cells', async () => {
    const two: StateSpec = {
      locations: sites({ WH: 'warehouse', A: 'store', B: 'store' }),
      styles: [tee],
      cells: {
        'WH/TEE-M': { onHand: 200 },
        'WH/TEE-L': { onHand: 50 },
        'A/TEE-M': { onHand: 3, sales: 2 },
        'B/TEE-M': { onHand: 1, sales: 1 },
        'A/TEE-L': { onHand: 2 },
      },
    };
    const history: ActualRow[] = [];
    for (let d = 0; d < 60; d++) {
      history.push({ day: d, cell: 'A/TEE-M', end: d % 5 === 4 ? 0 : 2, open: 3, sold: 1 + (d % 3) });
      if (d % 2 === 0) history.push({ day: d, cell: 'B/TEE-M', end: d % 6 === 0 ? 0 : 1, open: 2, sold: 1 });
    }
    const X = 30;
    const future = history.map((row) => (row.day >= X ? { ...row, sold: row.sold! * 4, end: row.end + 9 } : row));
    future.push({ day: 40, cell: 'WH/TEE-L', end: 300, open: 300, mutations: 250 });
    // Worlds that agree up to X in what happened and what customers wanted (see simulate.test.ts).
    const before = backtestInput(two, 60, history);
    const a = await simulate(before, settings(), { trace: { style: 0 } });
    const b = await simulate(spliceDays(before, backtestInput(two, 60, future), X), settings(), {
      trace: { style: 0 },
    });
    for (const f of STYLE_DAY_FIELDS) {
      expect(styleSeries(b, 0, f).slice(0, X), f).toEqual(styleSeries(a, 0, f).slice(0, X));
    }
    for (let l = 0; l < 3; l++) {
      for (let k = 0; k < 2; k++) {
        for (const f of CELL_DAY_FIELDS)
          expect(cellSeries(b.trace!, l, k, f).slice(0, X), `${l}/${k} ${f}`).toEqual(
            cellSeries(a.trace!, l, k, f).slice(0, X),
          );
      }
    }
    // Later days did change: the comparison is not empty.
    expect(styleSeries(b, 0, 'actSales').slice(X)).not.toEqual(styleSeries(a, 0, 'actSales').slice(X));
    expect(b.trace!.transfers.filter((x) => x.day < b.fromDay + X)).toEqual(
      a.trace!.transfers.filter((x) => x.day < a.fromDay + X),
    );
  });
});

describe('per style and traced on the demo sample', () => {
  let input: () => Promise<BacktestInput>;
  const period = { from: day('2025-03-03'), to: day('2025-05-25') };
  const s: Settings = resolveSettings({});

  beforeAll(async () => {
    const wb = await Workbench.open(demoWorkspace(join(dir, 'ws')));
    try {
      // The input's buffers are handed to worker threads by some replays: each replay gets its own copy.
      const kept = await loadBacktestInput(wb.workspace, period.from, period.to, s);
      input = async () => structuredClone(kept);
    } finally {
      await wb.close();
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("adds up to the run's KPIs of every style and to the network's days", async () => {
    const r = await simulate(await input(), s);
    expect(r.byStyle.length).toBeGreaterThan(10);
    let checked = 0;
    r.byStyle.forEach((g, style) => {
      const total = (f: StyleDayField) => sum(styleSeries(r, style, f));
      expect(total('simStockOutDays')).toBe(g.simulated.stockOutDays);
      expect(total('actStockOutDays')).toBe(g.actual.stockOutDays);
      expect(total('carriedDays')).toBe(g.simulated.carriedDays);
      expect(total('demand')).toBeCloseTo(g.actual.demand, 1);
      expect(total('estimatedDemand')).toBeCloseTo(g.simulated.estimatedDemand, 1);
      expect(total('simSales')).toBeCloseTo(g.simulated.sales, 1);
      expect(total('actSales')).toBeCloseTo(g.actual.sales, 1);
      expect(total('simLostSales')).toBeCloseTo(g.simulated.lostSales, 1);
      expect(total('actLostSales')).toBeCloseTo(g.actual.lostSales, 1);
      expect(total('simInventoryUnits') / r.daysDone).toBeCloseTo(g.simulated.inventoryUnits, 1);
      expect(total('actInventoryUnits') / r.daysDone).toBeCloseTo(g.actual.inventoryUnits, 1);
      expect(total('simWarehouseUnits') / r.daysDone).toBeCloseTo(g.simulated.warehouse.inventoryUnits, 1);
      expect(total('actWarehouseUnits') / r.daysDone).toBeCloseTo(g.actual.warehouse.inventoryUnits, 1);
      if (g.simulated.stockOutDays > 0 && g.simulated.sales > 0) checked++;
    });
    expect(checked).toBeGreaterThan(2);
    r.daily.forEach((d, i) => {
      const over = (f: StyleDayField) => sum(r.byStyle.map((_, style) => styleDayValue(r.styleDays, i, style, f)));
      expect(over('simStockOutDays')).toBe(d.simulated.stockOutDays);
      expect(over('actStockOutDays')).toBe(d.actual.stockOutDays);
      expect(over('simSales')).toBeCloseTo(d.simulated.sales, 6);
      expect(over('simTransfersOut')).toBeCloseTo(d.simulated.transferUnits, 6);
    });
    const units = sum(transferRows(r.transfers).map((t) => t.quantity));
    expect(units).toBeGreaterThan(0);
    expect(sum(r.byStyle.map((_, style) => sum(styleSeries(r, style, 'simTransfersOut'))))).toBeCloseTo(units, 6);
  });

  it("reproduces the run's own figures for the traced style, the same in every replay", async () => {
    const run = await simulate(await input(), s);
    // The style that lost the most in the replay.
    const style = run.byStyle.reduce(
      (best, g, i) => (g.simulated.lostSales > run.byStyle[best].simulated.lostSales ? i : best),
      0,
    );
    const L = run.byLocation.length;
    const one = await simulate(await input(), s, { trace: { style } });
    const threads = await simulatePartitioned(await input(), s, { trace: { style } }, 3);
    const t = one.trace!;
    expect(Array.from(threads.trace!.values)).toEqual(Array.from(t.values));
    expect(threads.trace!.transfers).toEqual(t.transfers);
    const pairs: [CellDayField, StyleDayField][] = [
      ['simSales', 'simSales'],
      ['actSales', 'actSales'],
      ['simLostSales', 'simLostSales'],
      ['actLostSales', 'actLostSales'],
      ['demand', 'demand'],
      ['estimatedDemand', 'estimatedDemand'],
      ['carried', 'carriedDays'],
      ['receipts', 'receipts'],
      ['transfersIn', 'simTransfersIn'],
      ['transfersOut', 'simTransfersOut'],
      ['demandEstimate', 'demandEstimate'],
    ];
    for (const [cf, sf] of pairs) {
      const traced = traceTotals(t, L, cf);
      styleSeries(run, style, sf).forEach((v, i) => expect(traced[i], `${cf} on day ${i}`).toBeCloseTo(v, 6));
    }
    // Stock: the cells of every location, the stores' and the warehouses' together.
    for (const [cf, stores, warehouses] of [
      ['simStock', 'simInventoryUnits', 'simWarehouseUnits'],
      ['actStock', 'actInventoryUnits', 'actWarehouseUnits'],
    ] as const) {
      const traced = traceTotals(t, L, cf);
      const [a, b] = [styleSeries(run, style, stores), styleSeries(run, style, warehouses)];
      a.forEach((v, i) => expect(traced[i], `${cf} on day ${i}`).toBeCloseTo(v + b[i], 6));
    }
    const outs = traceTotals(t, L, 'simInStock');
    expect(outs.length).toBe(run.daysDone);
    expect(sum(traceTotals(t, L, 'simLostSales'))).toBeGreaterThan(0);
    // Its transfers are the run's transfers of the style's SKUs.
    const skus = new Set(Array.from({ length: t.kTo - t.kFrom }, (_, k) => k + t.kFrom));
    const K = (await input()).start.skus.ids;
    expect(t.transfers.map(({ reason: _, arrivalDay: __, ...x }) => x)).toEqual(
      transferRows(run.transfers).filter((x) => skus.has(K.indexOf(x.skuId))),
    );
    // A cancelled run is traced over the days it replayed.
    const cut = await simulate(await input(), s, { trace: { style }, stopAfterDays: 20 });
    expect(cut).toMatchObject({ daysDone: 20, cancelled: false });
    expect(cut.trace!.daysDone).toBe(20);
    for (const f of ['simStock', 'demand', 'transfersIn'] as const)
      expect(traceTotals(cut.trace!, L, f)).toEqual(traceTotals(t, L, f).slice(0, 20));
    // Alone, with the network's sums and trips the run kept, the style lives the run's days to the bit.
    const alone = await replayStyle(await input(), s, { trace: { style } }, run.reviews);
    expect(Array.from(alone.trace!.values)).toEqual(Array.from(t.values));
    expect(alone.trace!.transfers).toEqual(t.transfers);
    const aloneCut = await replayStyle(await input(), s, { trace: { style }, stopAfterDays: 20 }, run.reviews);
    expect(Array.from(aloneCut.trace!.values)).toEqual(Array.from(cut.trace!.values));
  });

  it('replays any style alone from the reviews a run kept, its moves, trips and new styles included', async () => {
    const run = await simulate(await input(), s);
    const K = (await input()).start.skus;
    const styleOfSku = (id: string) => K.style[K.ids.indexOf(id)];
    // Styles the engine moved between stores, and styles it first sent out.
    const pick = (type: string) => [
      ...new Set(
        transferRows(run.transfers)
          .filter((x) => x.transferType === type)
          .map((x) => styleOfSku(x.skuId)),
      ),
    ];
    const [moved, sent] = [pick('Redistribution'), pick('InitialDistribution')];
    expect(moved.length).toBeGreaterThan(0);
    expect(sent.length).toBeGreaterThan(0);
    const styles = [...moved.slice(0, 4), ...sent.slice(0, 3), ...pick('Replenishment').slice(0, 2)];
    for (const style of styles) {
      const whole = await simulate(await input(), s, { trace: { style } });
      const alone = await replayStyle(await input(), s, { trace: { style } }, run.reviews);
      expect(Array.from(alone.trace!.values), `style ${style}`).toEqual(Array.from(whole.trace!.values));
      expect(alone.trace!.transfers).toEqual(whole.trace!.transfers);
    }
  });
});
