/** The admin API's load and preview requests: picked files as names and text (or bytes), with the load's options. */
import { Type, type Static } from '@sinclair/typebox';
import { findDataset } from '../model/datasets.js';
import { RequestRejected } from '../model/problems.js';
import { CsvMappingSchema } from '../ingest/csv/mapping-file.js';
import type { FileLoadOptions, LoadFile } from './file-load.js';

const FileName = Type.String({
  minLength: 1,
  maxLength: 1000,
  description: "The file's name (or path in a picked folder); it may tell the endpoint or level.",
});

const PickedFiles = Type.Array(
  Type.Object({
    name: FileName,
    text: Type.Optional(
      Type.String({ description: "The file's content: an endpoint's JSON body, or CSV with a header row." }),
    ),
    base64: Type.Optional(
      Type.String({
        description:
          'Instead of text, base64-encoded: a Parquet or Arrow IPC (Feather v2) file of one level, or a CSV file ' +
          'that is not UTF-8 (read in the encoding its mapping declares).',
      }),
    ),
  }),
  { minItems: 1 },
);

/** Picked files as the service takes them: each with its text, or a binary file's bytes decoded. */
function picked(files: Static<typeof PickedFiles>): LoadFile[] {
  return files.map((f, i) => {
    if (typeof f.text === 'string' && f.base64 === undefined) return { name: f.name, text: f.text };
    if (typeof f.base64 === 'string' && f.text === undefined)
      return { name: f.name, bytes: Buffer.from(f.base64, 'base64') };
    throw new RequestRejected(`files/${i} (${f.name}): give its text, or base64 for a Parquet or Arrow file`);
  });
}

const Dataset = Type.String({
  description: "The endpoint of every file (default: told by each file's name, body or columns).",
});

export const PreviewRequestSchema = Type.Object({
  files: PickedFiles,
  mapping: Type.Optional(CsvMappingSchema),
  dataset: Type.Optional(Dataset),
});

export const CheckRequestSchema = Type.Object({
  ...PreviewRequestSchema.properties,
  allProblems: Type.Optional(
    Type.Boolean({
      description:
        'List every problem of a refused batch (default: the first 1,000, counted up to 100,000): ' +
        'the Load screen asks so for its errors file.',
    }),
  ),
});

export const LoadRequestSchema = Type.Object({
  files: PickedFiles,
  mapping: Type.Optional(CsvMappingSchema),
  dataset: Type.Optional(Dataset),
  fullLoad: Type.Optional(
    Type.Boolean({
      description:
        "Send each dataset's files as one full load: what they do not hold is deleted " +
        '(Locations, PurchaseOrders; Stock: set to 0).',
    }),
  ),
  onlyIfAllPass: Type.Optional(
    Type.Boolean({
      description:
        'Check every file first and load nothing unless all of them pass (default: each dataset loads or is ' +
        'refused on its own).',
    }),
  ),
});

export type LoadRequest = Static<typeof LoadRequestSchema>;
export type PreviewRequest = Static<typeof PreviewRequestSchema>;
export type CheckRequest = Static<typeof CheckRequestSchema>;

function datasetOption(name: string | undefined) {
  if (name === undefined) return undefined;
  const d = findDataset(name.replace(/^\//, ''));
  if (!d) throw new RequestRejected(`unknown dataset "${name}"`);
  return d;
}

/** A load request its schema let through, as the files and options the service takes. */
export function loadRequestOptions(r: LoadRequest): { files: LoadFile[]; options: FileLoadOptions } {
  return {
    files: picked(r.files),
    options: {
      mapping: r.mapping,
      fullLoad: r.fullLoad === true,
      onlyIfAllPass: r.onlyIfAllPass === true,
      dataset: datasetOption(r.dataset),
    },
  };
}

/** A preview or check request as the service takes it; a check's `allProblems` lists every problem of a refusal. */
export function previewRequestOptions(r: PreviewRequest | CheckRequest): {
  files: LoadFile[];
  options: FileLoadOptions;
} {
  return {
    files: picked(r.files),
    options: {
      mapping: r.mapping,
      dataset: datasetOption(r.dataset),
      ...('allProblems' in r && r.allProblems === true ? { allProblems: true } : {}),
    },
  };
}
