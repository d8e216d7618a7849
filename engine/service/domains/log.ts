/**
 * The request log and the feed lint: what clients sent and what the workbench answered, and the specification's
 * pitfalls found in the stored feed and those requests. Owns the request log.
 */
import { lint, type LintReport } from '../../ingest/lint.js';
import type { RequestLogEntry, RequestLogInput } from '../../model/request-log.js';
import { RequestLog } from '../request-log.js';
import type { ServiceContext } from './context.js';

/** Log entries the lint reads for warnings such as unknown fields. */
const LINT_LOG_ENTRIES = 2000;

export class LogService {
  private readonly log: RequestLog;
  /** Request log entries waiting for the workspace's next turn (logRequest). */
  private readonly waiting: {
    entry: RequestLogInput;
    at: number;
    resolve: (id: number) => void;
    reject: (e: unknown) => void;
  }[] = [];

  constructor(
    private readonly ctx: ServiceContext,
    maxLogEntries?: number,
  ) {
    this.log = new RequestLog(ctx.workspace, maxLogEntries);
  }

  init(): Promise<void> {
    return this.log.init();
  }

  /**
   * Logs an answered request. Entries that arrive while the workspace is busy are written together, in one
   * transaction, when its turn comes: a flood of requests costs the log one write per turn, not one each, and
   * the calls queued behind it do not wait for thousands of writes.
   */
  logRequest(entry: RequestLogInput): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ entry, at: this.ctx.stamp(), resolve, reject });
      if (this.waiting.length > 1) return;
      const write = async () => {
        const batch = this.waiting.splice(0);
        try {
          const ids = await this.log.appendAll(batch);
          batch.forEach((b, i) => b.resolve(ids[i]));
        } catch (e) {
          for (const b of batch) b.reject(e);
        }
      };
      this.ctx.workspace.exclusive(write).catch((e: unknown) => {
        for (const b of this.waiting.splice(0)) b.reject(e);
      });
    });
  }

  requestLog(query: { afterId?: number; limit?: number } = {}): Promise<RequestLogEntry[]> {
    return this.ctx.workspace.exclusive(() => this.log.read(query));
  }

  /** The spec's pitfalls found in the stored feed and in the recent requests. */
  lint(): Promise<LintReport> {
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => lint(ws, this.ctx.clock(), await this.log.read({ limit: LINT_LOG_ENTRIES })));
  }
}
