import type { DatasetSummary } from '../../../common/api-types';
import { useWorkbench, type BacktestForm } from '../store';

/**
 * The period the form starts with: the sales the workspace holds, start to end (the whole history a backtest can
 * compare against), else the last quarter up to `today`.
 */
export function defaultForm(summary: DatasetSummary[] | undefined, scenario: string, today: Date): BacktestForm {
  const sales = summary?.find((d) => d.dataset === 'Sales');
  if (sales?.from && sales.to) return { from: sales.from.slice(0, 10), to: sales.to.slice(0, 10), scenario };
  const before = new Date(today.getTime() - 90 * 86_400_000);
  return { from: before.toISOString().slice(0, 10), to: today.toISOString().slice(0, 10), scenario };
}

/**
 * The Backtest screen's form: as the user left it (kept beyond the screen), else the workspace's sales period; a
 * scenario no longer kept gives way to the first one.
 */
export function useBacktestForm(summary: DatasetSummary[] | undefined, scenarios: string[]) {
  const backtestForm = useWorkbench((s) => s.backtestForm);
  const setBacktestForm = useWorkbench((s) => s.setBacktestForm);
  const form = backtestForm ?? defaultForm(summary, scenarios[0], new Date());
  const scenario = scenarios.includes(form.scenario) ? form.scenario : scenarios[0];
  const edit = (change: Partial<BacktestForm>) => setBacktestForm({ ...form, scenario, ...change });
  return { from: form.from, to: form.to, scenario, edit };
}
