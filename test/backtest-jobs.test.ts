import { describe, expect, it } from 'vitest';
import { BacktestJobs, type JobEnd, type JobHooks } from '../engine/service/backtest-jobs.js';

const run = (runId: string, status: JobEnd['status'], daysDone: number): JobEnd => ({ runId, status, daysDone });

/** A run that replays one day each time `step` is called, and stops when asked to. */
function steppedRun(days: number) {
  let step!: () => void;
  const start = async (hooks: JobHooks) => {
    for (let d = 1; d <= days; d++) {
      await new Promise<void>((r) => (step = r));
      if (hooks.isCancelled()) return run('bt-c', 'cancelled', d - 1);
      hooks.onProgress(d, days);
    }
    return run('bt-1', 'completed', days);
  };
  return {
    start,
    step: async () => {
      step();
      await new Promise((r) => setTimeout(r, 0));
    },
  };
}

describe('background backtests', () => {
  it('report progress, end with their run, and stop when cancelled', async () => {
    const jobs = new BacktestJobs();
    const a = steppedRun(3);
    const job = jobs.start(3, a.start);
    expect(job).toMatchObject({ status: 'running', daysDone: 0, days: 3 });
    await a.step();
    expect(jobs.get(job.jobId)).toMatchObject({ status: 'running', daysDone: 1 });
    await a.step();
    await a.step();
    expect(jobs.get(job.jobId)).toMatchObject({ status: 'completed', daysDone: 3, runId: 'bt-1' });

    const b = steppedRun(10);
    const other = jobs.start(10, b.start);
    await b.step();
    expect(jobs.cancel(other.jobId).status).toBe('running');
    await b.step();
    expect(jobs.get(other.jobId)).toMatchObject({ status: 'cancelled', daysDone: 1, runId: 'bt-c' });
    // Cancelling an ended job changes nothing.
    expect(jobs.cancel(job.jobId).status).toBe('completed');
  });

  it("keep a failure as the job's error and name unknown jobs", async () => {
    const jobs = new BacktestJobs();
    const job = jobs.start(5, async () => {
      throw new Error('the workspace is closed');
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(jobs.get(job.jobId)).toMatchObject({ status: 'failed', error: 'the workspace is closed' });
    expect(() => jobs.get('job-99')).toThrow(/no backtest job "job-99"/);
  });

  it('stop every running job before the workspace closes', async () => {
    const jobs = new BacktestJobs();
    const a = steppedRun(100);
    const job = jobs.start(100, a.start);
    const stopped = jobs.stopAll();
    await a.step();
    await stopped;
    expect(jobs.get(job.jobId).status).toBe('cancelled');
  });
});
