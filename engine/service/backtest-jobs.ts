/**
 * Backtests and sweeps the UI starts and watches: the work goes on in the background while the caller polls its
 * progress and may cancel it; a cancelled run keeps the days it replayed, a cancelled sweep the runs it finished.
 */
import { RequestRejected } from '../model/problems.js';

export interface BacktestJob {
  jobId: string;
  status: 'running' | 'completed' | 'cancelled' | 'failed';
  daysDone: number;
  days: number;
  /** The kept run, once it ends (cancelled runs are kept too). */
  runId?: string;
  /** The kept sweep, once a sweep's job ends. */
  sweepId?: string;
  error?: string;
}

/** How a job's work ended: its days done, and what it kept. */
export interface JobEnd {
  status: 'completed' | 'cancelled';
  daysDone: number;
  runId?: string;
  sweepId?: string;
}

export interface JobHooks {
  onProgress: (daysDone: number, days: number) => void;
  isCancelled: () => boolean;
}

/** Finished jobs remembered for late pollers. */
const KEPT = 50;

export class BacktestJobs {
  private readonly jobs = new Map<string, { job: BacktestJob; cancel: boolean; done: Promise<void> }>();
  private next = 1;

  /** Starts `run` at once; its errors end up in the job, never as an unhandled rejection. */
  start(days: number, run: (hooks: JobHooks) => Promise<JobEnd>): BacktestJob {
    const job: BacktestJob = { jobId: `job-${this.next++}`, status: 'running', daysDone: 0, days };
    const entry = { job, cancel: false, done: Promise.resolve() };
    entry.done = run({
      onProgress: (daysDone, total) => Object.assign(job, { daysDone, days: total }),
      isCancelled: () => entry.cancel,
    }).then(
      // The run's own count is final; the last progress report may lag a day behind a cancel.
      (end) => void Object.assign(job, end),
      (e: Error) => void Object.assign(job, { status: 'failed', error: e.message }),
    );
    this.jobs.set(job.jobId, entry);
    this.forgetOld();
    return { ...job };
  }

  get(jobId: string): BacktestJob {
    return { ...this.entry(jobId).job };
  }

  /** Asks the run to stop after the day it is on; the answer says where it is now. */
  cancel(jobId: string): BacktestJob {
    const e = this.entry(jobId);
    if (e.job.status === 'running') e.cancel = true;
    return { ...e.job };
  }

  /** Cancels every running job and waits for each to end (before the workspace closes under them). */
  async stopAll(): Promise<void> {
    for (const e of this.jobs.values()) e.cancel = true;
    await Promise.all([...this.jobs.values()].map((e) => e.done));
  }

  private entry(jobId: string) {
    const e = this.jobs.get(jobId);
    if (!e) throw new RequestRejected(`no backtest job "${jobId.slice(0, 80)}"`, 404);
    return e;
  }

  private forgetOld() {
    const finished = [...this.jobs.values()].filter((e) => e.job.status !== 'running');
    for (const e of finished.slice(0, Math.max(0, finished.length - KEPT))) this.jobs.delete(e.job.jobId);
  }
}
