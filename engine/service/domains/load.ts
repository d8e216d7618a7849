/**
 * File loads: files as a user picked them (JSON or CSV, or the demo retailer), checked, previewed, or loaded into
 * the datasets in the foreground or in the background. Owns the background loads; writes go through the datasets.
 */
import type { CsvPreview } from '../../ingest/csv/preview.js';
import { RequestRejected } from '../../model/problems.js';
import { demoFiles } from '../demo.js';
import {
  checkFiles,
  loadFiles,
  previewCsv,
  type BatchOutcome,
  type FileLoadOptions,
  type LoadFile,
  type LoadProgress,
  type LoadReport,
} from '../file-load.js';
import { LoadJobs, type LoadJob } from '../load-jobs.js';
import type { DatasetService } from './datasets.js';

export class LoadService {
  private readonly jobs = new LoadJobs();

  constructor(private readonly datasets: DatasetService) {}

  /** Files as picked, JSON or CSV, each dataset's batch whole or not at all (file-load.ts). */
  loadFiles(
    files: readonly LoadFile[],
    options: FileLoadOptions = {},
    onProgress?: (p: LoadProgress) => void,
  ): Promise<LoadReport> {
    return loadFiles(this.datasets, files, options, onProgress);
  }

  /** Starts loading files in the background and answers at once with its job; poll `loadJob`. */
  startLoad(files: readonly LoadFile[], options: FileLoadOptions = {}): LoadJob {
    return this.jobs.start(files.length, (onProgress) => loadFiles(this.datasets, files, options, onProgress));
  }

  /**
   * Loads the demo retailer into this workspace in the background, as a picked folder of it would load. Only an
   * empty workspace takes it: the demo mixed into a retailer's own data would make neither readable.
   */
  async startDemoLoad(dir?: string): Promise<LoadJob> {
    const files = demoFiles(dir);
    if (!files?.length) throw new RequestRejected('the demo data (samples/demo) is not part of this build', 404);
    const held = (await this.datasets.summary()).filter((s) => s.live > 0).map((s) => s.dataset);
    if (held.length)
      throw new RequestRejected(
        `the workspace holds data already (${held.slice(0, 3).join(', ')}${held.length > 3 ? ', …' : ''}): ` +
          'the demo loads into an empty workspace; create one on the Workspace screen',
        409,
      );
    return this.startLoad(files);
  }

  loadJob(jobId: string): LoadJob {
    return this.jobs.get(jobId);
  }

  /** What a load of these files would meet (every problem of every file), loading nothing. */
  checkFiles(files: readonly LoadFile[], options: FileLoadOptions = {}): Promise<BatchOutcome[]> {
    return checkFiles(files, options);
  }

  /** CSV files' levels, column mappings and first rows as they will load. */
  previewCsv(files: readonly LoadFile[], options: FileLoadOptions = {}): Promise<CsvPreview> {
    return previewCsv(files, options);
  }

  /** Waits for every running load to end (before the workspace closes under it). */
  settle(): Promise<void> {
    return this.jobs.settle();
  }
}
