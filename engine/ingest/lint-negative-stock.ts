/**
 * The lint rule on actual stock below zero. It reads the stock the backtest replays from, reconstructed the same
 * way (engine/store/daily-levels.ts: the latest level + the mutations − the net sales since), so what it reports is
 * what the backtest's actual side starts from. A cell is a location × SKU; a day counts when it ends below zero.
 */
import { DAY_MICROS, dayText } from '../model/datetime.js';
import { dailyLevels, type DailyLevels } from '../store/daily-levels.js';
import type { Workspace } from '../store/workspace.js';
import { LIVE, STOCKED_LOCATIONS, STOCKED_SKUS, type LintExample, type Rule } from './lint-rule.js';

/**
 * The reconstruction reads the latest days of the data that hold at most this many stock levels, stock mutations
 * and sales lines together: the lint runs on every refresh of the app, and its cost and memory follow the events
 * read. A feed the size of the spec's two years for 20 stores is read whole.
 */
export const NEGATIVE_STOCK_EVENTS = 1_500_000;
/** The cells named per location: its lowest. */
const WORST_CELLS = 3;

/** Days since 1970-01-01; `to` is the first day after. */
interface Period {
  from: number;
  to: number;
}

async function latestPeriod(ws: Workspace, maxEvents: number): Promise<Period | undefined> {
  const days = await ws.rows<{ day: number; events: bigint }>(`
    SELECT (epoch_us(t) // ${DAY_MICROS})::INTEGER AS day, count(*) AS events
    FROM (SELECT stockDateTime AS t FROM stock
          UNION ALL SELECT mutationDateTime FROM ${LIVE.live('stock_mutations')}
          UNION ALL SELECT salesDateTime FROM ${LIVE.lines})
    GROUP BY 1 ORDER BY 1 DESC`);
  if (!days.length) return undefined;
  let from = days[0].day;
  let events = 0;
  for (const d of days) {
    events += Number(d.events);
    if (events > maxEvents) break;
    from = d.day;
  }
  return { from, to: days[0].day + 1 };
}

interface Cell {
  cell: number;
  /** Days of the period that ended below zero. */
  days: number;
  lowest: number;
  /** The period's day (from 0) the lowest was first reached. */
  lowestOn: number;
}

/**
 * The cells whose level ends a day of the period below zero. Rows come per cell, day by day, only for days with an
 * event, so a level holds until the cell's next row (or the period's end); the row before the period (d = −1)
 * holds from its first day.
 */
function cellsBelowZero({ cell, d, endLevel }: DailyLevels, periodDays: number): Cell[] {
  const out: Cell[] = [];
  for (let i = 0; i < cell.length;) {
    const found: Cell = { cell: cell[i], days: 0, lowest: 0, lowestOn: 0 };
    for (; i < cell.length && cell[i] === found.cell; i++) {
      const start = Math.max(d[i], 0);
      const end = i + 1 < cell.length && cell[i + 1] === found.cell ? d[i + 1] : periodDays;
      if (!(endLevel[i] < 0) || end <= start) continue;
      found.days += end - start;
      if (endLevel[i] < found.lowest) Object.assign(found, { lowest: endLevel[i], lowestOn: start });
    }
    if (found.days > 0) out.push(found);
  }
  return out;
}

const ids = async (ws: Workspace, column: string, sql: string) =>
  (await ws.rows<{ id: string }>(`SELECT ${column} AS id FROM ${sql} ORDER BY 1`)).map((r) => r.id);

/** Per location, its cells below zero over the latest days holding at most `maxEvents` events; most days first. */
export async function negativeStock(ws: Workspace, maxEvents = NEGATIVE_STOCK_EVENTS): Promise<LintExample[]> {
  const period = await latestPeriod(ws, maxEvents);
  if (!period) return [];
  // Cells without any stock history would only repeat what sales-without-stock and non-merchandise-sku report.
  const locationIds = await ids(ws, 'locationId', STOCKED_LOCATIONS);
  const skuIds = await ids(ws, 'skuId', STOCKED_SKUS);
  const levels = await dailyLevels(ws, locationIds, skuIds, period.from, period.to);
  const L = locationIds.length;
  const byLocation = new Map<number, Cell[]>();
  for (const x of cellsBelowZero(levels, period.to - period.from)) {
    const cells = byLocation.get(x.cell % L);
    if (cells) cells.push(x);
    else byLocation.set(x.cell % L, [x]);
  }
  const sku = (x: Cell) => skuIds[Math.floor(x.cell / L)];
  const on = (x: Cell) => dayText(period.from + x.lowestOn);
  const range = `${dayText(period.from)} … ${dayText(period.to - 1)}`;
  const found = [...byLocation].map(([l, cells]) => {
    cells.sort((a, b) => a.lowest - b.lowest || b.days - a.days || a.cell - b.cell);
    const days = cells.reduce((sum, x) => sum + x.days, 0);
    const [worst] = cells;
    const example: LintExample = {
      dataset: 'Stock (location)',
      id: locationIds[l],
      detail:
        `${cells.length} SKU(s) below zero on ${days} SKU-day(s), lowest ${worst.lowest} units ` +
        `(${sku(worst)} on ${on(worst)}); stock reconstructed over ${range}`,
      sample: cells
        .slice(0, WORST_CELLS)
        .map((x) => `${sku(x)}: lowest ${x.lowest} on ${on(x)}, ${x.days} day(s) below zero`),
    };
    return { example, days };
  });
  found.sort((a, b) => b.days - a.days || a.example.id.localeCompare(b.example.id));
  return found.map((x) => x.example);
}

export const NEGATIVE_STOCK_RULE: Rule = {
  rule: 'negative-actual-stock',
  title: 'Actual stock below zero',
  why:
    'Stock reconstructed as the backtest does (the latest level + stock mutations − net sales) cannot go below ' +
    'zero in a shop: a receipt or transfer left out, a sale booked at the wrong location or a wrong count did it, ' +
    "and the backtest's actual days then hold stock that was never there. Locations and SKUs without any stock " +
    'history are left to sales-without-stock and non-merchandise-sku.',
  run: (ws) => negativeStock(ws),
};
