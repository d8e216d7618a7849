/** What a refused or accepted request reports, in every layer: each problem with its record, pointer and reason. */
export interface Problem {
  /** JSON pointer into the request body, e.g. `/sales/3/salesLines/0/quantitySold`. */
  path: string;
  /** Id of the dataset record the problem is in (composite keys joined with "/"), when it has one. */
  recordId?: string;
  message: string;
  /** Where a problem of a file load lies: the file, its row (a CSV header is row 1) and the column. */
  file?: string;
  row?: number;
  column?: string;
}

/** A problem's fields as the columns of an errors file (`workbench load --errors`, the Load screen's download). */
export const PROBLEM_COLUMNS = [
  'file',
  'row',
  'column',
  'path',
  'recordId',
  'message',
] as const satisfies readonly (keyof Problem)[];

/**
 * Text from a request, cut to `max` characters for a message or a log: a hostile body can hold a field name or
 * an id of megabytes, and an answer listing a thousand problems must not repeat it a thousand times.
 */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** The whole batch was rejected; nothing of it was applied. */
export class ValidationFailed extends Error {
  constructor(
    readonly dataset: string,
    readonly errors: Problem[],
    /** How many errors there were in all; `errors` is capped. */
    readonly errorCount: number,
    readonly warnings: Problem[] = [],
    /** Checking stopped at `errorCount` errors: there are at least that many. */
    readonly countStopped = false,
  ) {
    const first = errors
      .slice(0, 3)
      .map((e) => `${e.path}${e.recordId ? ` (${e.recordId})` : ''}: ${e.message}`)
      .join('; ');
    super(
      `${dataset}: batch rejected, nothing applied: ${errorCount}${countStopped ? ' or more' : ''} ` +
        `error${errorCount === 1 ? '' : 's'}${countStopped ? ' (checking stopped there)' : ''}: ` +
        `${first}${errorCount > 3 ? '; …' : ''}`,
    );
  }
}

/** A request the service cannot take for a reason other than the records' content (wrong flags, wrong dataset). */
export class RequestRejected extends Error {
  constructor(
    message: string,
    readonly status = 400,
    /** Where in the request each reason lies, when the request is a body of fields. */
    readonly errors: Problem[] = [],
  ) {
    super(message);
  }
}
