/**
 * The mapping a user writes for a load (`--map mapping.json`, the Load screen's choices): per file, its level, the
 * field or fields each column goes to, and how the file writes what is not text. Its schema is the one source of
 * its validation, its type and its OpenAPI description.
 */
import { Type, type Static } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { RequestRejected } from '../../model/problems.js';
import { CSV_ENCODINGS } from './read.js';
import { compileDateFormat, DATE_TOKENS } from './date-format.js';

const FileMappingSchema = Type.Object(
  {
    level: Type.Optional(
      Type.String({
        description: 'The level the file holds, e.g. "Items.skus"; default: told by its name, else its columns.',
      }),
    ),
    encoding: Type.Optional(
      Type.Union(
        CSV_ENCODINGS.map((e) => Type.Literal(e)),
        { description: "A CSV file's text encoding; default utf-8. Spreadsheets on Windows often write windows-1252." },
      ),
    ),
    columns: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1 }), Type.Null()]), {
        description:
          'Column header → field ("colorId"; an ancestor\'s as "Items.code"), a list of fields the column ' +
          'fills alike (["quantitySold", "quantityTransferred"]), or null to leave the column out. ' +
          'Columns not named are mapped by their header.',
      }),
    ),
    dateFormat: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description:
          `How the file writes its dates and times, e.g. "DD/MM/YYYY HH:mm": the tokens ${DATE_TOKENS.join(', ')} ` +
          'between any separators (all but YYYY take one or two digits); a date without its time is midnight UTC. ' +
          'Default: ISO 8601.',
      }),
    ),
    decimalComma: Type.Optional(
      Type.Boolean({
        description: 'The file writes decimals with a comma (2,5); default: so when its cells are not split by commas.',
      }),
    ),
    repeatedSaleFields: Type.Optional(
      Type.Union([Type.Literal('refuse'), Type.Literal('first')], {
        description:
          "A sale's (an order's, an item's) fields repeated on each of its rows that differ between them: " +
          '"refuse" the dataset, naming each such sale and field once (the default), or take the "first" row\'s ' +
          'value, said once per file.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A mapping for a load: per file (by its name as given, or its base name), its level and column overrides. */
export const CsvMappingSchema = Type.Record(Type.String(), FileMappingSchema, {
  description: 'File name → its level and column mapping.',
});

export type FileMapping = Static<typeof FileMappingSchema>;
export type CsvMapping = Static<typeof CsvMappingSchema>;

const checkMapping = TypeCompiler.Compile(CsvMappingSchema);

/** Why a mapping's dateFormat cannot be read, or undefined when it can. */
export function dateFormatProblem(format: string): string | undefined {
  const compiled = compileDateFormat(format);
  if (!('error' in compiled)) return undefined;
  return (
    `dateFormat "${format}" is not a date format: ${compiled.error}; write it with ${DATE_TOKENS.join(', ')} ` +
    'between separators, e.g. "DD/MM/YYYY HH:mm"'
  );
}

const SHAPE =
  '{"skus.csv": {"level": "Items.skus", "columns": {"Colour": "colorId", "Notes": null}}}, or for a sales ' +
  'export {"Sales.csv": {"dateFormat": "DD/MM/YYYY HH:mm", "columns": {"Qty": ["quantitySold", ' +
  '"quantityTransferred"]}}}';

/** A mapping as a user wrote it (a `--map` file, a request body), refused with every problem named. */
export function parseCsvMapping(value: unknown): CsvMapping {
  const problems = [...checkMapping.Errors(value)].slice(0, 10).map((e) => `${e.path || '/'}: ${e.message}`);
  if (problems.length === 0) {
    for (const [file, m] of Object.entries(value as CsvMapping)) {
      const wrong = m.dateFormat === undefined ? undefined : dateFormatProblem(m.dateFormat);
      if (wrong) problems.push(`/${file}/dateFormat: ${wrong}`);
    }
    if (problems.length === 0) return value as CsvMapping;
  }
  throw new RequestRejected(`the column mapping is not valid: ${problems.join('; ')}. Its shape: ${SHAPE}`);
}

/** The mapping given for a file: by its name as given, else by its base name. */
export function mappingFor(mapping: CsvMapping | undefined, name: string): FileMapping {
  return mapping?.[name] ?? mapping?.[name.split(/[\\/]/).pop()!] ?? {};
}
