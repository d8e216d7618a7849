import type { DatasetSummary } from '../../../common/api-types';
import type { PickedFile } from '../client';

const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
const listed = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : items.join('');

/** What the Load screen takes, what a full load deletes (of the data loaded so far), and the JSON files picked. */
export function LoadHints({ summary, json }: { summary: DatasetSummary[] | undefined; json: readonly PickedFile[] }) {
  const fullLoadable = summary?.filter((s) => s.fullLoad).map((s) => words(s.dataset)) ?? [];
  return (
    <>
      <p className="hint">
        JSON: one endpoint's request body per file (e.g. <code>{'{"sales": [...]}'}</code>), named after the endpoint (
        <code>Sales-0001.json</code>) or holding one array named after it. CSV: one file per kind of row, named after it
        (<code>items.csv</code>, <code>skus.csv</code>, <code>barcodes.csv</code>; <code>Sales.csv</code> with one row
        per sales line; <code>PurchaseOrders.csv</code> with one row per order line), with a header row. Parquet and
        Arrow (<code>.parquet</code>, <code>.arrow</code>, <code>.feather</code>) files are read the same way, their
        columns mapped like a CSV file's. Each dataset's files are applied whole or not at all.
      </p>
      {/* prettier-ignore */}
      <p className="hint" data-testid="full-load-hint">
        Full load: {fullLoadable.length ? listed(fullLoadable) : 'the data that allows it'} that these files do
        not hold{' '}
        {fullLoadable.length === 1 ? 'is' : 'are'} deleted (stock is set to 0); other data is added or updated as usual.
        A rejected file cancels its dataset's full load, which then deletes nothing.
      </p>
      {json.length > 0 && (
        <p className="hint">
          JSON file{json.length === 1 ? '' : 's'} to load: {json.map((f) => f.name).join(', ')}.
        </p>
      )}
    </>
  );
}
