/**
 * `workbench demo` (`npm run demo`): the demo retailer in a workspace of its own, loaded when the workspace holds
 * nothing yet, with a backtest over its history run once, so browser mode opens on a run to read.
 */
import { dayOf } from '../model/datetime.js';
import { demoFiles } from '../service/demo.js';
import type { Workbench } from '../service/workbench.js';

/** What the demo's workspace holds once ready: the run to open, and what this start did to get there. */
export interface DemoReady {
  runId: string;
  loadedRecords?: number;
  ranPeriod?: string;
}

/**
 * Loads the demo into an empty workspace and runs a backtest over the period the Backtest screen starts with (the
 * sales the workspace holds, from the first day its stock is known); a workspace with data and a run is left as it is.
 */
export async function prepareDemo(wb: Workbench): Promise<DemoReady> {
  const ready: Partial<DemoReady> = {};
  if (!(await wb.summary()).some((s) => s.live > 0)) {
    const files = demoFiles();
    if (!files) throw new Error('the demo data (samples/demo) is missing from this copy of the workbench');
    const report = await wb.loadFiles(files);
    if (report.rejected) throw new Error(`the demo did not load: ${report.batches.find((b) => b.error)?.error}`);
    ready.loadedRecords = report.records;
  }
  const [kept] = await wb.backtests();
  if (kept) return { ...ready, runId: kept.runId };
  const summary = await wb.summary();
  const from = (name: string) => summary.find((s) => s.dataset === name)?.from;
  const sales = summary.find((s) => s.dataset === 'Sales');
  if (!sales?.from || !sales.to) throw new Error('the workspace holds no sales to run a backtest over');
  const day = (iso: string) => dayOf(Date.parse(iso) * 1000);
  // Stock is known from the first level or mutation, whichever came first.
  const stocked = [from('Stock'), from('StockMutations')].filter((d): d is string => !!d).map(day);
  const fromDay = Math.max(day(sales.from), ...(stocked.length ? [Math.min(...stocked)] : []));
  const toDay = day(sales.to);
  const { run } = await wb.runBacktest({ fromDay, toDay });
  return { ...ready, runId: run.runId, ranPeriod: `${run.from} … ${run.to}` };
}
