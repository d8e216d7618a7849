/** What a write asks and what it answers, as every adapter and the file load see it. */
import type { Problem } from '../model/problems.js';

export interface IngestOptions {
  /** Refresh the whole dataset: records not sent are soft-deleted (stock: set to 0). */
  fullLoad?: boolean;
  /** Part of a split full load with more calls to come. */
  moreRecordsAvailable?: boolean;
}

export interface IngestResult {
  dataset: string;
  /** Records in this call. */
  received: number;
  created: number;
  updated: number;
  /** Soft-deleted by a full load or a DELETE. */
  deleted: number;
  /** Stock full load: location/SKU levels set to 0. */
  zeroed: number;
  /** Split full load still open after this call (its records are not applied yet). */
  staged?: { calls: number; records: number; startedAt: string };
  /** This call was the last of a split full load: its calls (this one included), records and start. */
  completed?: { calls: number; records: number; startedAt: string };
  warnings: Problem[];
}
