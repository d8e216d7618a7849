/** The UI's state: what it last loaded from the workbench, and what went wrong, in words. */
import { create } from 'zustand';
import type { DatasetSummary } from '../../engine/service/workbench';
import type { LintReport } from '../../engine/ingest/lint';
import type { WorkbenchClient } from './client';

interface State {
  client?: WorkbenchClient;
  summary?: DatasetSummary[];
  lint?: LintReport;
  loading: boolean;
  error?: string;
  connect(client: WorkbenchClient): void;
  refresh(): Promise<void>;
}

export const useWorkbench = create<State>((set, get) => ({
  loading: false,
  connect: (client) => set({ client }),
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
