/** The UI's state: what it last loaded from the workbench, and what went wrong, in words. */
import { create } from 'zustand';
import type { DatasetSummary } from '../../engine/service/workbench';
import type { LintReport } from '../../engine/ingest/lint';
import type { BacktestJob, BacktestResult, CsvMapping, LoadJob, PickedFile, ProposalRow } from './client';
import { allProposals, type AdminClient } from './client';

interface State {
  client?: AdminClient;
  summary?: DatasetSummary[];
  lint?: LintReport;
  /** The kept scenarios' names, the one runs use when none is named first; empty until read. */
  scenarios: string[];
  loading: boolean;
  error?: string;
  backtest?: BacktestResult;
  backtestRunning: boolean;
  /** The run under way: days done of days. */
  backtestJob?: BacktestJob;
  cancelBacktest(): Promise<void>;
  proposals?: ProposalRow[];
  transfersBusy: boolean;
  notice?: string;
  runRecommendations(): Promise<void>;
  loadProposals(): Promise<void>;
  approve(referenceIds: string[], description: string, plannedDispatchDate: string): Promise<void>;
  connect(client: AdminClient): void;
  refresh(): Promise<void>;
  runBacktest(from: string, to: string, scenario?: string): Promise<void>;
  loadScenarios(): Promise<void>;
  /** The load under way or last finished: files done, records, and every batch's outcome once it ends. */
  loadJob?: LoadJob;
  loadRunning: boolean;
  loadFiles(files: PickedFile[], options: { mapping: CsvMapping; fullLoad: boolean }): Promise<void>;
}

/** How often a running backtest is asked how far it got. */
const POLL_MS = 250;

export const useWorkbench = create<State>((set, get) => {
  /** A change to the transfers: the list is read again, then the notice says what happened. */
  const changeTransfers = async (failed: string, change: (client: AdminClient) => Promise<string>) => {
    const { client } = get();
    if (!client) return;
    set({ transfersBusy: true, error: undefined, notice: undefined });
    try {
      const notice = await change(client);
      // The list first, then the notice: whoever reads the notice finds the list it speaks of.
      await get().loadProposals();
      set({ notice });
    } catch (e) {
      set({ error: `${failed}: ${(e as Error).message}` });
    } finally {
      set({ transfersBusy: false });
    }
  };
  return {
    scenarios: [],
    loading: false,
    backtestRunning: false,
    transfersBusy: false,
    loadRunning: false,
    loadFiles: async (files, options) => {
      const { client } = get();
      if (!client) return;
      set({ loadRunning: true, loadJob: undefined, error: undefined, notice: undefined });
      let failure: string | undefined;
      try {
        let job = await client.call('POST /load/jobs', { body: { files, ...options } });
        set({ loadJob: job });
        while (job.status === 'running') {
          await new Promise((r) => setTimeout(r, POLL_MS));
          job = await client.call('GET /load/jobs/:jobId', { params: { jobId: job.jobId } });
          set({ loadJob: job });
        }
        if (job.status === 'failed') failure = job.error;
      } catch (e) {
        failure = (e as Error).message;
      }
      set({ loadRunning: false });
      // The counts on the Workspace tab follow what landed; the refresh clears old errors, so this one comes after.
      await get().refresh();
      if (failure) set({ error: `The files were not loaded: ${failure}` });
    },
    loadProposals: async () => {
      const { client } = get();
      if (!client) return;
      try {
        set({ proposals: await allProposals(client) });
      } catch (e) {
        set({ error: `The transfers could not be read: ${(e as Error).message}` });
      }
    },
    runRecommendations: () =>
      changeTransfers('The recommendations did not run', async (client) => {
        const run = await client.call('POST /recommendations/run', { body: {} });
        return `Run ${run.runId} as of ${run.asOf.slice(0, 10)}: ${run.proposals} proposals`;
      }),
    approve: (referenceIds, description, plannedDispatchDate) =>
      changeTransfers('The approval was refused', async (client) => {
        const r = await client.call('POST /transfers/approve', {
          body: {
            referenceIds,
            description: description || undefined,
            plannedDispatchDate: plannedDispatchDate || undefined,
          },
        });
        return `Approved ${r.approved} as batch ${r.approvalBatchId}`;
      }),
    connect: (client) => set({ client }),
    loadScenarios: async () => {
      const { client } = get();
      if (!client) return;
      try {
        const { scenarios, defaultScenario } = await client.call('GET /scenarios');
        set({ scenarios: [defaultScenario, ...scenarios.filter((n) => n !== defaultScenario)] });
      } catch (e) {
        set({ error: `The scenarios could not be read: ${(e as Error).message}` });
      }
    },
    runBacktest: async (from, to, scenario) => {
      const { client } = get();
      if (!client) return;
      set({ backtestRunning: true, backtestJob: undefined, error: undefined, notice: undefined });
      try {
        let job = await client.call('POST /backtests/jobs', { body: { from, to, scenario } });
        set({ backtestJob: job });
        while (job.status === 'running') {
          await new Promise((r) => setTimeout(r, POLL_MS));
          job = await client.call('GET /backtests/jobs/:jobId', { params: { jobId: job.jobId } });
          set({ backtestJob: job });
        }
        if (job.status === 'failed' || !job.runId) throw new Error(job.error ?? 'it stopped without a run');
        const result = await client.call('GET /backtests/:runId', { params: { runId: job.runId } });
        set({
          backtest: result,
          notice:
            job.status === 'cancelled'
              ? `Cancelled after ${job.daysDone} of ${job.days} days; the days replayed are kept as run ${job.runId}`
              : undefined,
        });
      } catch (e) {
        set({ error: `The backtest did not run: ${(e as Error).message}` });
      } finally {
        set({ backtestRunning: false, backtestJob: undefined });
      }
    },
    cancelBacktest: async () => {
      const { client, backtestJob } = get();
      if (!client || !backtestJob) return;
      try {
        await client.call('POST /backtests/jobs/:jobId/cancel', { params: { jobId: backtestJob.jobId } });
      } catch (e) {
        set({ error: `The backtest could not be cancelled: ${(e as Error).message}` });
      }
    },
    refresh: async () => {
      const { client } = get();
      if (!client) return;
      set({ loading: true, error: undefined });
      try {
        const [summary, lint] = await Promise.all([
          client.call('GET /summary'),
          client.call('GET /lint'),
          get().loadScenarios(),
        ]);
        set({ summary, lint, loading: false });
      } catch (e) {
        set({ loading: false, error: (e as Error).message });
      }
    },
  };
});
