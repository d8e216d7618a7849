/** The UI's state: what it last loaded from the workbench, and what went wrong, in words. */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { DatasetSummary, LintReport, BusinessNames } from '../../common/api-types';
import type { BacktestJob, BacktestResult, CsvMapping, LoadJob, PickedFile, ProposalRow } from './client';
import { allProposals, type AdminClient } from './client';
import { go, type Screen } from './route';

/** What the Backtest form holds: kept here so that it survives a visit to another screen. */
export interface BacktestForm {
  from: string;
  to: string;
  scenario: string;
}

export type BreakdownLevel = 'location' | 'style';

export interface Breakdown {
  level: BreakdownLevel;
  /** Text an id or a name holds. */
  filter: string;
  /** A location's kind (store, warehouse, online), or '' for every kind. */
  kind?: string;
  /** A style's merchandise category, or '' for every one. */
  category?: string;
  /** Only the rows that saw a day carried, a sale or stock. */
  activeOnly?: boolean;
}

interface State {
  client?: AdminClient;
  /** The business names beside the ids, and the workspace's currency. */
  names?: BusinessNames;
  /** Reads the names again: after a load, or on another workspace. */
  loadNames(): Promise<void>;
  summary?: DatasetSummary[];
  lint?: LintReport;
  /**
   * The counts and the lint shown were read before the workspace last changed (a load is under way, or ended and
   * they have not been read again since): the screen says so until the fresh answer arrives.
   */
  summaryBehind: boolean;
  lintBehind: boolean;
  /** The kept scenarios' names, the one runs use when none is named first; empty until read. */
  scenarios: string[];
  loading: boolean;
  error?: string;
  backtest?: BacktestResult;
  /** A run the address names that could not be read. */
  backtestMissing?: string;
  backtestForm?: BacktestForm;
  /** The workspace the kept view belongs to (its path). */
  workspace?: string;
  /** How a run's breakdown is shown: by what, narrowed by text, kind, category and to the rows with activity. */
  breakdown: Breakdown;
  /** Whether the charts show days or weeks: all of them switch together. */
  chartStep: 'day' | 'week';
  setChartStep(step: 'day' | 'week'): void;
  /** Settings edited but not saved, per scenario: the form's value and the JSON view's text. */
  settingsDrafts: Record<string, { value: Record<string, unknown>; text: string }>;
  setSettingsDraft(scenario: string, draft?: { value: Record<string, unknown>; text: string }): void;
  setBreakdown(breakdown: Breakdown): void;
  setBacktestForm(form: BacktestForm): void;
  /** Shows a kept run (the one an address names): read once, then kept until another is opened. */
  openRun(runId: string): Promise<void>;
  backtestRunning: boolean;
  /** The run under way: days done of days. */
  backtestJob?: BacktestJob;
  cancelBacktest(): Promise<void>;
  proposals?: ProposalRow[];
  transfersBusy: boolean;
  /** What the last action on a screen did, shown on that screen only. */
  notice?: { screen: Screen; text: string };
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
  loadFiles(
    files: PickedFile[],
    options: { mapping: CsvMapping; fullLoad: boolean; onlyIfAllPass: boolean },
  ): Promise<void>;
  /** Forgets the last load's outcome: new files are picked. */
  clearLoad(): void;
  /** Loads the demo retailer into the (empty) workspace open now. */
  loadDemo(): Promise<void>;
}

/** How often a running backtest is asked how far it got. */
const POLL_MS = 250;

/**
 * What the screens keep for the tab's session beyond its address (a reload finds them as they were): the Backtest
 * form, how a run's breakdown is shown, days or weeks in the charts, and settings edited but not saved.
 */
const KEPT = { name: 'workbench.view', storage: createJSONStorage(() => sessionStorage) };

export const useWorkbench = create<State>()(
  persist(
    (set, get) => {
      /** How many loads have ended: a summary or lint read that began after the last of them is fresh. */
      let loadsEnded = 0;
      /** Refreshes begun, and the latest whose counts and lint are shown: an answer older than those is dropped. */
      let refreshes = 0;
      const shown = { summary: 0, lint: 0 };
      /** Refreshes under way: the screen says it is loading until the last of them ends. */
      let pending = 0;
      /** A change to the transfers: the list is read again, then the notice says what happened. */
      const changeTransfers = async (failed: string, change: (client: AdminClient) => Promise<string>) => {
        const { client } = get();
        if (!client) return;
        set({ transfersBusy: true, error: undefined, notice: undefined });
        try {
          const text = await change(client);
          // The list first, then the notice: whoever reads the notice finds the list it speaks of.
          await get().loadProposals();
          set({ notice: { screen: 'transfers', text } });
        } catch (e) {
          set({ error: `${failed}: ${(e as Error).message}` });
        } finally {
          set({ transfersBusy: false });
        }
      };
      /** A load started by `start`, followed to its end; the counts are read again once it ends. */
      const followLoad = async (start: (client: AdminClient) => Promise<LoadJob>) => {
        const { client } = get();
        if (!client) return;
        // From its first batch on, the load changes what the counts count.
        set({
          loadRunning: true,
          loadJob: undefined,
          error: undefined,
          notice: undefined,
          summaryBehind: true,
          lintBehind: true,
        });
        let failure: string | undefined;
        try {
          let job = await start(client);
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
        loadsEnded++;
        set({ loadRunning: false });
        // The counts on the Workspace tab follow what landed; the refresh clears old errors, so this one comes after.
        await get().refresh();
        if (failure) set({ error: `The files were not loaded: ${failure}` });
      };
      return {
        scenarios: [],
        summaryBehind: false,
        lintBehind: false,
        loading: false,
        backtestRunning: false,
        transfersBusy: false,
        loadRunning: false,
        clearLoad: () => set({ loadJob: undefined }),
        loadNames: async () => {
          const { client } = get();
          if (!client) return;
          try {
            set({ names: await client.call('GET /names') });
          } catch (e) {
            set({ error: `The names of locations and styles could not be read: ${(e as Error).message}` });
          }
        },
        loadFiles: (files, options) =>
          followLoad((client) => client.call('POST /load/jobs', { body: { files, ...options } })),
        loadDemo: () => followLoad((client) => client.call('POST /load/demo')),
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
        breakdown: { level: 'location', filter: '' },
        setBreakdown: (breakdown) => set({ breakdown }),
        chartStep: 'day',
        setChartStep: (chartStep) => set({ chartStep }),
        settingsDrafts: {},
        setSettingsDraft: (scenario, draft) => {
          const { [scenario]: _, ...others } = get().settingsDrafts;
          set({ settingsDrafts: draft ? { ...others, [scenario]: draft } : others });
        },
        setBacktestForm: (backtestForm) => set({ backtestForm }),
        openRun: async (runId) => {
          const { client, backtest } = get();
          if (!client || backtest?.run.runId === runId) return;
          try {
            const result = await client.call('GET /backtests/:runId', { params: { runId } });
            set({
              backtest: result,
              backtestMissing: undefined,
              backtestForm: { from: result.run.from, to: result.run.to, scenario: result.run.scenario ?? '' },
            });
          } catch (e) {
            set({ backtestMissing: runId, error: `Run ${runId} could not be opened: ${(e as Error).message}` });
          }
        },
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
              backtestMissing: undefined,
              notice:
                job.status === 'cancelled'
                  ? {
                      screen: 'backtest',
                      text:
                        `Cancelled after ${job.daysDone} of ${job.days} days; ` +
                        `the days replayed are kept as run ${job.runId}`,
                    }
                  : undefined,
            });
            // The run gets its address once it is shown: Back returns to the one shown before.
            go({ screen: 'backtest', runId: job.runId });
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
          const asOf = loadsEnded;
          const refresh = ++refreshes;
          /** Whether what this refresh read is already behind: a load ran, or ended, while it was read. */
          const behind = () => get().loadRunning || asOf < loadsEnded;
          pending++;
          set({ loading: true, error: undefined });
          // The counts come on their own: the lint reads every dataset and takes longer.
          const counts = Promise.all([client.call('GET /summary'), client.call('GET /workspaces')]).then(
            ([summary, workspaces]) => {
              if (refresh < shown.summary) return;
              shown.summary = refresh;
              // What was kept for another workspace (a form's period, drafts of its scenarios) does not carry over.
              const workspace = workspaces.current.path;
              if (get().workspace !== undefined && get().workspace !== workspace)
                set({ backtestForm: undefined, settingsDrafts: {}, breakdown: { level: 'location', filter: '' } });
              set({ summary, workspace, summaryBehind: behind() });
            },
          );
          const lint = client.call('GET /lint').then((report) => {
            if (refresh < shown.lint) return;
            shown.lint = refresh;
            set({ lint: report, lintBehind: behind() });
          });
          try {
            await Promise.all([counts, lint, get().loadScenarios()]);
          } catch (e) {
            set({ error: (e as Error).message });
          } finally {
            pending--;
            set({ loading: pending > 0 });
          }
        },
      };
    },
    {
      ...KEPT,
      partialize: (s) => ({
        chartStep: s.chartStep,
        workspace: s.workspace,
        backtestForm: s.backtestForm,
        breakdown: s.breakdown,
        settingsDrafts: s.settingsDrafts,
      }),
    },
  ),
);
