/**
 * Rows back from an Arrow stream the admin API sent (engine/server/arrow.ts): a column named by a path
 * (`simulated.fillRate`) is a nested field, a column the schema's metadata names as JSON is parsed, a null text is
 * an absent field and a null number stays null. Nothing here needs a page.
 */
import type { Table } from 'apache-arrow';
import type { JSON_COLUMNS_KEY as SERVER_KEY } from '../../common/api-types';

/** The schema metadata key naming the columns that hold JSON text, checked against the server's. */
const JSON_COLUMNS_KEY: typeof SERVER_KEY = 'workbench.json-columns';

export function rowsFromArrow<T>(table: Table): T[] {
  const json = new Set((table.schema.metadata.get(JSON_COLUMNS_KEY) ?? '').split(',').filter(Boolean));
  const columns = table.schema.fields.map((f) => ({
    path: f.name.split('.'),
    vector: table.getChild(f.name)!,
    json: json.has(f.name),
    // Text (plain or dictionary-encoded) that is null was an absent field; a null number is a value (no rate).
    textual: /Utf8/.test(String(f.type)),
  }));
  const rows: T[] = new Array(table.numRows);
  // Row by row: each row object is built with its fields in one order, which keeps them one shape to the engine.
  for (let i = 0; i < table.numRows; i++) {
    const row: Record<string, unknown> = {};
    for (const c of columns) {
      let v = c.vector.get(i) as unknown;
      if (v === null && c.textual) continue;
      if (c.json && v !== null) v = JSON.parse(v as string);
      let into = row;
      for (let d = 0; d < c.path.length - 1; d++) into = (into[c.path[d]] ??= {}) as Record<string, unknown>;
      into[c.path[c.path.length - 1]] = v;
    }
    rows[i] = row as T;
  }
  return rows;
}
