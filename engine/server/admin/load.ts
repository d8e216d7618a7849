/** Admin routes that load files as a user picked them, now or in the background, and preview CSV mappings. */
import { Type } from '@sinclair/typebox';
import { DATASETS } from '../../model/datasets.js';
import type { CsvPreview } from '../../ingest/csv/preview.js';
import type { BatchOutcome, LoadReport } from '../../service/file-load.js';
import type { IngestResult } from '../../service/ingest-result.js';
import type { LoadJob } from '../../service/load-jobs.js';
import {
  CheckRequestSchema,
  LoadRequestSchema,
  loadRequestOptions,
  PreviewRequestSchema,
  previewRequestOptions,
} from '../../service/load-request.js';
import type { ServerContext } from '../context.js';
import { answer, routeFor } from './route.js';
import { Id } from './schemas.js';

const route = routeFor<ServerContext>();

/** A picked file is one endpoint's body: no larger than the largest any endpoint takes. */
const LARGEST_FILE = Math.max(...DATASETS.map((d) => d.bodyLimit));

const LoadJobAnswer = answer<LoadJob>(
  'LoadJob',
  "A background load: status, files done of files, records and rate, and every batch's outcome once it ends.",
);

export const loadRoutes = {
  'POST /load': route({
    summary:
      'Load one file as a user picked it: ?file=NAME, the body is the file; ' +
      "its endpoint is told by the name, else by the body's one array",
    query: Type.Object({
      file: Type.String({ minLength: 1, maxLength: 1000, description: "The file's name, e.g. Sales-0001.json." }),
    }),
    body: Type.Unknown({ description: "The file's JSON: one endpoint's body." }),
    bodyLimit: LARGEST_FILE,
    response: answer<IngestResult>('IngestResult', 'The endpoint the file went to and the records it applied.'),
    handle: async ({ query, body }, { wb }) => wb.ingestFile(query.file, body),
  }),

  'POST /load/demo': route({
    summary:
      'Load the demo retailer (two years of a small fashion chain) into this workspace, which must be empty, ' +
      'in the background; poll the job it answers with',
    response: LoadJobAnswer,
    handle: async (_, { wb }) => wb.startDemoLoad(),
  }),

  'POST /load/preview': route({
    summary: "What picked CSV files will load as: each one's level, its columns' fields and its first rows converted",
    body: PreviewRequestSchema,
    bodyLimit: LARGEST_FILE,
    response: answer<CsvPreview>('CsvPreview', "Each file's level, column mapping, first rows and their problems."),
    handle: async ({ body }, { wb }) => {
      const { files, options } = previewRequestOptions(body);
      return wb.previewCsv(files, options);
    },
  }),

  'POST /load/check': route({
    summary:
      'Check picked files as a load would, loading nothing: every problem each batch would be refused for, ' +
      'by file, row and column, and what its load would warn of',
    body: CheckRequestSchema,
    bodyLimit: LARGEST_FILE,
    response: answer<{ batches: BatchOutcome[] }>(
      'LoadCheck',
      '{batches}: each batch as it would go, its records, and its refusal with every problem if it would be refused.',
    ),
    handle: async ({ body }, { wb }) => {
      const { files, options } = previewRequestOptions(body);
      return { batches: await wb.checkFiles(files, options) };
    },
  }),

  'POST /load/files': route({
    summary:
      'Load picked JSON and CSV files as `workbench load` does (synchronous): ' +
      "each dataset's batch whole or not at all",
    body: LoadRequestSchema,
    bodyLimit: LARGEST_FILE,
    response: answer<LoadReport>('LoadReport', "Every batch's outcome, records and rate."),
    handle: async ({ body }, { wb }) => {
      const { files, options } = loadRequestOptions(body);
      return wb.loadFiles(files, options);
    },
  }),

  'POST /load/jobs': route({
    summary: 'Start loading picked files in the background; poll the job it answers with',
    body: LoadRequestSchema,
    bodyLimit: LARGEST_FILE,
    response: LoadJobAnswer,
    handle: async ({ body }, { wb }) => {
      const { files, options } = loadRequestOptions(body);
      return wb.startLoad(files, options);
    },
  }),

  'GET /load/jobs/:jobId': route({
    summary: "A background load: files done, records and rate, and every batch's outcome once it ends",
    params: Type.Object({ jobId: Id('The job, as starting it answered.') }),
    response: LoadJobAnswer,
    handle: async ({ params }, { wb }) => wb.loadJob(params.jobId),
  }),
};
