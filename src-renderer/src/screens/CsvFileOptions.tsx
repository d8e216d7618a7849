import { useEffect, useState } from 'react';
import type { CsvFilePreview, FileMapping } from '../client';

export type FileOptions = Pick<FileMapping, 'dateFormat' | 'decimalComma' | 'repeatedSaleFields'>;

const DECIMALS: [value: string, words: string, decimalComma: boolean | undefined][] = [
  ['', 'as the delimiter tells', undefined],
  ['comma', 'comma (2,5)', true],
  ['dot', 'dot (2.5)', false],
];

/**
 * How one file writes what is not text, set once for the whole file: its dates (a format such as DD/MM/YYYY HH:mm),
 * its decimal mark, and what a sale's fields that differ between its rows do.
 */
export function CsvFileOptions({
  file,
  mapping,
  onOptions,
}: {
  file: CsvFilePreview;
  mapping: FileMapping;
  onOptions: (options: FileOptions) => void;
}) {
  // The format is sent when typed out (Enter or leaving the box), not at every key: half a format is no format.
  const [dateFormat, setDateFormat] = useState(mapping.dateFormat ?? '');
  useEffect(() => setDateFormat(mapping.dateFormat ?? ''), [mapping.dateFormat]);
  const commit = () => {
    const next = dateFormat.trim() || undefined;
    if (next !== mapping.dateFormat) onOptions({ dateFormat: next });
  };
  const decimals = DECIMALS.find(([, , d]) => d === mapping.decimalComma)![0];
  return (
    <div className="toolbar mapping__options">
      <label>
        Dates written as{' '}
        <input
          type="text"
          aria-label={`Date format of ${file.name}`}
          placeholder="ISO 8601, or e.g. DD/MM/YYYY HH:mm"
          value={dateFormat}
          onChange={(e) => setDateFormat(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => e.key === 'Enter' && commit()}
        />
      </label>
      <label>
        Decimal mark{' '}
        <select
          aria-label={`Decimal mark of ${file.name}`}
          value={decimals}
          onChange={(e) => onOptions({ decimalComma: DECIMALS.find(([v]) => v === e.target.value)![2] })}
        >
          {DECIMALS.map(([value, words]) => (
            <option key={value} value={value}>
              {value === '' && decimals === '' ? `${words} (${file.decimalComma ? 'comma' : 'dot'})` : words}
            </option>
          ))}
        </select>
      </label>
      {/* Only a file whose rows repeat a parent's fields (one row per sales line) can disagree with itself. */}
      {file.level?.includes('.') && (
        <label>
          Sale fields that differ between rows{' '}
          <select
            aria-label={`Repeated fields of ${file.name}`}
            value={mapping.repeatedSaleFields ?? 'refuse'}
            onChange={(e) => onOptions({ repeatedSaleFields: e.target.value === 'first' ? 'first' : undefined })}
          >
            <option value="refuse">refuse the data, naming each sale</option>
            <option value="first">take the first row's value</option>
          </select>
        </label>
      )}
    </div>
  );
}
