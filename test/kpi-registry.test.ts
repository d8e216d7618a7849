import { describe, expect, it } from 'vitest';
import { figureOf, KPIS, OWN_KPIS, STOCK_KPIS, type Kpi } from '../common/kpis.js';
import { formatSummary } from '../engine/cli/backtest-format.js';
import { resolveSettings } from '../engine/recommend/settings.js';
import { addToDay, dayTotals, DAY_VALUES } from '../engine/simulate/daily-totals.js';
import { FIELDS, RUN } from '../engine/simulate/kpi-sums.js';
import { KPI_COLUMNS, kpiColumns, kpisFromColumns, type SideKpis } from '../engine/simulate/kpis.js';
import { simulate } from '../engine/simulate/simulate.js';
import { KPIS as CARDS } from '../src-renderer/src/kpis.js';
import { backtestInput, type ActualRow } from './engine-fixtures.js';

/**
 * Two stores and a warehouse selling two SKUs of a style for 20 days: S1 sells 3 a day, sells out of M on day 5 and
 * has none on days 6–9 (the history's estimate stands for those days), S2 sells 1 a day from a shelf that never
 * empties.
 */
async function twoStores() {
  const rows: ActualRow[] = [];
  const start = { 'S1/TEE-M': 108, 'S1/TEE-L': 200, 'S2/TEE-M': 80, 'S2/TEE-L': 80 };
  const levels: Record<string, number> = { ...start };
  for (let d = -30; d < 20; d++)
    for (const cell of Object.keys(levels)) {
      const sold = cell.startsWith('S1') ? 3 : 1;
      if (cell === 'S1/TEE-M' && d >= 6 && d < 10) continue;
      const received = d === 10 && cell === 'S1/TEE-M' ? 30 : 0;
      const open = levels[cell] + received;
      levels[cell] = open - sold;
      rows.push({ day: d, cell, open, end: levels[cell], sold, mutations: received });
    }
  const input = backtestInput(
    {
      locations: [
        { id: 'WH', kind: 'warehouse' },
        { id: 'S1', kind: 'store' },
        { id: 'S2', kind: 'store' },
      ],
      styles: [
        {
          id: 'TEE',
          category: 'TEES',
          skus: [
            { id: 'TEE-M', size: 'M', price: 20 },
            { id: 'TEE-L', size: 'L', price: 20 },
          ],
        },
      ],
      cells: {
        'S1/TEE-M': { onHand: 18, sales: 3 },
        'S1/TEE-L': { onHand: 110, sales: 3 },
        'S2/TEE-M': { onHand: 50, sales: 1 },
        'S2/TEE-L': { onHand: 50, sales: 1 },
        'WH/TEE-M': { onHand: 50 },
        'WH/TEE-L': { onHand: 50 },
      },
    },
    20,
    rows,
    [],
    { historyDays: 30, startLevels: start },
  );
  return simulate(input, resolveSettings({}, { redistribution: { enabled: false } }));
}

/** A side's KPIs as flat keys, in the order the object holds them (warehouse and network prefixed). */
const flatKeys = (k: SideKpis) =>
  Object.entries(k).flatMap(([key, v]) =>
    typeof v === 'object' && v !== null ? Object.keys(v).map((f) => `${key}${f[0].toUpperCase()}${f.slice(1)}`) : [key],
  );

describe('the KPI registry', () => {
  it("lays out a run's sums densely: one slot per KPI summed and side, shared where both sides count alike", () => {
    const sim = Object.values(RUN.sim);
    const act = Object.values(RUN.act).filter((s) => s >= 0);
    expect(new Set(sim).size).toBe(sim.length);
    expect(new Set([...sim, ...act])).toEqual(new Set(Array.from({ length: RUN.size }, (_, i) => i)));
    // The actual side's lost sales are its estimated demand; its sales are its own.
    expect(RUN.act.lostSales).toBe(RUN.sim.estimatedDemand);
    expect(RUN.act.sales).not.toBe(RUN.sim.sales);
    expect(RUN.act.demand).toBe(RUN.sim.demand);
    expect(RUN.act.estimatedSales).toBe(-1);
    // Every KPI summed is one of the registry's.
    for (const f of FIELDS.filter((x) => !x.endsWith('Sum'))) expect(Object.keys(OWN_KPIS)).toContain(f);
  });

  it('names every KPI once, the parts of a table row under a row of the table, the cards at distinct places', () => {
    const keys = KPIS.map((k) => k.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(KPIS).toHaveLength(Object.keys(OWN_KPIS).length + 3 * Object.keys(STOCK_KPIS).length);
    for (const k of KPIS.filter((x) => x.table?.under)) {
      expect(KPIS.find((w) => w.key === k.table!.under)?.table, k.key).toEqual({});
    }
    const places = KPIS.flatMap((k) => (k.card === undefined ? [] : [k.card]));
    expect(places.sort((a, b) => a - b)).toEqual(places.map((_, i) => i + 1));
    for (const k of KPIS) expect(k.explains.length, k.key).toBeGreaterThan(10);
  });

  it('is what a replay computes, the columns runs keep in its order, and what they read back', async () => {
    const r = await twoStores();
    for (const side of [r.summary.simulated, r.summary.actual, ...r.byLocation.map((g) => g.simulated)]) {
      const own = Object.fromEntries(Object.entries(side).filter(([k]) => KPI_COLUMNS.includes(k as never)));
      const kpis = { ...own, warehouse: side.warehouse, network: side.network } as SideKpis;
      expect(flatKeys(kpis)).toEqual(KPIS.map((k) => k.key));
      expect(KPI_COLUMNS).toEqual(KPIS.map((k) => k.key));
      expect(kpisFromColumns(kpiColumns(kpis))).toEqual(kpis);
    }
    const s = r.summary.simulated;
    expect(r.summary.actual).toMatchObject({ carriedDays: 80, stockOutDays: 4, estimatedSales: 0 });
    expect(r.summary.actual.negativeStock.cells).toBe(0);
    expect(s.estimatedSales).toBeGreaterThan(0);
    expect(
      figureOf(
        KPIS.find((k) => k.key === 'warehouseInventoryUnits')!,
        s,
      ),
    ).toBe(s.warehouse.inventoryUnits);
    expect(
      figureOf(
        KPIS.find((k) => k.key === 'lostSales')!,
        r.summary.actual,
      ),
    ).toBe(r.summary.actual.lostSales);
  });

  it("adds up over the locations as the registry says: a total, average or end is the locations' sum", async () => {
    const r = await twoStores();
    const additive = KPIS.filter((k) => k.sum !== 'ratio');
    expect(additive.length).toBeGreaterThan(20);
    for (const side of ['simulated', 'actual'] as const)
      for (const k of additive) {
        const network = figureOf(k, r.summary[side]);
        const parts = r.byLocation.map((g) => figureOf(k, g[side]));
        if (network === null)
          expect(
            parts.every((p) => p === null),
            `${side} ${k.key}`,
          ).toBe(true);
        else
          expect(
            parts.reduce((a: number, p) => a + p!, 0),
            `${side} ${k.key}`,
          ).toBeCloseTo(network, 1);
      }
    // A ratio is not its parts' sum: the network's fill rate lies between the stores'.
    const fill = KPIS.find((k) => k.key === 'fillRate')!;
    const [s1, s2] = ['S1', 'S2'].map((id) => figureOf(fill, r.byLocation.find((g) => g.id === id)!.actual)!);
    expect(s1).toBeLessThan(s2);
    expect(r.summary.actual.fillRate).toBeGreaterThan(s1);
    expect(r.summary.actual.fillRate).toBeLessThan(s2);
  });

  it("prints a row per KPI of the command line's table, in order, each part under its whole", async () => {
    const r = await twoStores();
    const lines = formatSummary(r.summary.simulated, r.summary.actual).split('\n');
    const row = (k: Kpi) => lines.findIndex((l) => l.startsWith(`${k.table?.under ? '  ' : ''}${k.label}  `));
    const shown = KPIS.filter((k) => k.table);
    expect(shown.length).toBeGreaterThan(15);
    let last = 0;
    for (const k of shown.filter((x) => !x.table!.under)) {
      expect(row(k), k.label).toBeGreaterThan(last);
      last = row(k);
      for (const part of shown.filter((x) => x.table!.under === k.key)) expect(row(part), part.label).toBe(++last);
    }
    for (const k of KPIS.filter((x) => !x.table)) expect(row(k), k.label).toBe(-1);
    const sales = lines[row(KPIS.find((k) => k.key === 'sales')!)];
    expect(sales.replace(/\s+/g, ' ')).toContain(`${Math.round(r.summary.simulated.sales)}`);
  });

  it("shows a card per KPI the registry places on the screens, in its order, with the registry's words", async () => {
    const cards = KPIS.filter((k) => k.card !== undefined).sort((a, b) => a.card! - b.card!);
    expect(CARDS.map((c) => c.key)).toEqual(cards.map((k) => k.key));
    expect(CARDS.map((c) => [c.label, c.explains, c.better])).toEqual(
      cards.map((k) => [k.cardLabel, k.explains, k.better]),
    );
    expect(CARDS.find((c) => c.key === 'warehouseInventoryUnits')!.label).toBe('Avg inventory, warehouses (units)');
    const r = await twoStores();
    for (const c of CARDS)
      expect(c.pick(r.summary.actual), c.key).toBe(figureOf(cards[CARDS.indexOf(c)], r.summary.actual));
  });
});

describe("a day's network totals", () => {
  it("add each location's run sums: service wherever it is, stock as the stores' or the warehouses'", () => {
    const runSums = (stock: number) => {
      const x = new Float64Array(RUN.size);
      x[RUN.sim.demand] = 10;
      x[RUN.sim.estimatedDemand] = 2;
      x[RUN.sim.sales] = 7;
      x[RUN.act.sales] = 6;
      x[RUN.sim.lostSales] = 3;
      x[RUN.sim.units] = stock;
      x[RUN.act.units] = stock + 1;
      return x;
    };
    const day = new Float64Array(2 * DAY_VALUES);
    addToDay(day, DAY_VALUES, runSums(5), true);
    addToDay(day, DAY_VALUES, runSums(40), false);
    expect(Array.from(day.subarray(0, DAY_VALUES)).every((v) => v === 0)).toBe(true);
    const t = dayTotals(day.subarray(DAY_VALUES));
    expect(t).toMatchObject({ demand: 20, estimatedDemand: 4 });
    expect(t.simulated).toMatchObject({ sales: 14, lostSales: 6, inventoryUnits: 5, warehouseUnits: 40 });
    // The actual side's lost sales are the demand estimated beyond its sales: one sum.
    expect(t.actual).toMatchObject({ sales: 12, lostSales: 4, inventoryUnits: 6, warehouseUnits: 41 });
  });
});
