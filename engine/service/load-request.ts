/** The admin API's load and preview requests: picked files as names and text, with the load's options. */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { findDataset } from '../model/datasets.js';
import { RequestRejected } from '../ingest/problems.js';
import { CsvMappingSchema } from '../ingest/csv/mapping.js';
import type { FileLoadOptions, LoadFile } from './file-load.js';

const PickedFiles = Type.Array(
  Type.Object({
    name: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: "The file's name (or path in a picked folder); it may tell the endpoint or level.",
    }),
    text: Type.String({ description: "The file's content: an endpoint's JSON body, or CSV with a header row." }),
  }),
  { minItems: 1 },
);

const Dataset = Type.String({
  description: "The endpoint of every file (default: told by each file's name, body or columns).",
});

export const PreviewRequestSchema = Type.Object({
  files: PickedFiles,
  mapping: Type.Optional(CsvMappingSchema),
  dataset: Type.Optional(Dataset),
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
});

const checkLoad = TypeCompiler.Compile(LoadRequestSchema);
const checkPreview = TypeCompiler.Compile(PreviewRequestSchema);

function parse<T extends TSchema>(check: TypeCheck<T>, body: unknown): Static<T> {
  if (check.Check(body)) return body;
  const problems = [...check.Errors(body)].slice(0, 5).map((e) => `${e.path || '/'}: ${e.message}`);
  throw new RequestRejected(
    `the request is not valid: ${problems.join('; ')}; ` +
      `send {"files": [{"name": "items.csv", "text": "…"}], "mapping"?: {…}, "fullLoad"?: true}`,
  );
}

function datasetOption(name: string | undefined) {
  if (name === undefined) return undefined;
  const d = findDataset(name.replace(/^\//, ''));
  if (!d) throw new RequestRejected(`unknown dataset "${name}"`);
  return d;
}

export function parseLoadRequest(body: unknown): { files: LoadFile[]; options: FileLoadOptions } {
  const r = parse(checkLoad, body);
  return {
    files: r.files,
    options: { mapping: r.mapping, fullLoad: r.fullLoad === true, dataset: datasetOption(r.dataset) },
  };
}

export function parsePreviewRequest(body: unknown): {
  files: { name: string; text: string }[];
  options: FileLoadOptions;
} {
  const r = parse(checkPreview, body);
  return { files: r.files, options: { mapping: r.mapping, dataset: datasetOption(r.dataset) } };
}
