/** The UI's state: what it last loaded from the workbench, and what went wrong, in words. */
import { create } from 'zustand';
import type { DatasetSummary } from '../../engine/service/workbench';
import type { LintReport } from '../../engine/ingest/lint';
import type { BacktestResult, WorkbenchClient } from './client';

interface State {
  client?: WorkbenchClient;
  summary?: DatasetSummary[];
  lint?: LintReport;
  loading: boolean;
  error?: string;
  backtest?: BacktestResult;
  backtestRunning: boolean;
  connect(client: WorkbenchClient): void;
  refresh(): Promise<void>;
  runBacktest(from: string, to: string): Promise<void>;
}

export const useWorkbench = create<State>((set, get) => ({
  loading: false,
  backtestRunning: false,
  connect: (client) => set({ client }),
  runBacktest: async (from, to) => {
    const { client } = get();
    if (!client) return;
    set({ backtestRunning: true, error: undefined });
    try {
      set({ backtest: await client.runBacktest(from, to), backtestRunning: false });
    } catch (e) {
      set({ backtestRunning: false, error: `The backtest did not run: ${(e as Error).message}` });
    }
  },
  refresh: async () => {
    const { client } = get();
    if (!client) return;
    set({ loading: true, error: undefined });
    try {
      const [summary, lint] = await Promise.all([client.summary(), client.lint()]);
      set({ summary, lint, loading: false });
    } catch (e) {
      set({ loading: false, error: (e as Error).message });
    }
  },
}));
