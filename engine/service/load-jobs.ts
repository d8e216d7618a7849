/**
 * Loads the UI starts and watches: the files go on loading in the background while the caller polls the files
 * done, the records and the rate, then reads every batch's outcome.
 */
import { RequestRejected } from '../model/problems.js';
import type { LoadProgress, LoadReport } from './file-load.js';

export interface LoadJob {
  jobId: string;
  status: 'running' | 'completed' | 'failed';
  progress: LoadProgress;
  /** Every batch's outcome, once the load ends. */
  report?: LoadReport;
  error?: string;
}

/** Finished loads remembered for late pollers (their reports can be long). */
const KEPT = 10;

export class LoadJobs {
  private readonly jobs = new Map<string, { job: LoadJob; done: Promise<void> }>();
  private next = 1;

  /** Starts `run` at once; its errors end up in the job, never as an unhandled rejection. */
  start(files: number, run: (onProgress: (p: LoadProgress) => void) => Promise<LoadReport>): LoadJob {
    const job: LoadJob = {
      jobId: `load-${this.next++}`,
      status: 'running',
      progress: { files, filesDone: 0, bytes: 0, bytesDone: 0, records: 0, seconds: 0 },
    };
    const done = run((p) => void (job.progress = p)).then(
      (report) => void Object.assign(job, { status: 'completed', report }),
      (e: Error) => void Object.assign(job, { status: 'failed', error: e.message }),
    );
    this.jobs.set(job.jobId, { job, done });
    const finished = [...this.jobs.values()].filter((e) => e.job.status !== 'running');
    for (const e of finished.slice(0, Math.max(0, finished.length - KEPT))) this.jobs.delete(e.job.jobId);
    return { ...job };
  }

  get(jobId: string): LoadJob {
    const e = this.jobs.get(jobId);
    if (!e) throw new RequestRejected(`no load "${jobId.slice(0, 80)}"`, 404);
    return { ...e.job };
  }

  /** Waits for every running load to end (before the workspace closes under it). */
  async settle(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((e) => e.done));
  }
}
