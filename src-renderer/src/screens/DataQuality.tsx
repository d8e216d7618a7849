import { useState } from 'react';
import { count, whole } from '../../../common/format';
import type { LintReport } from '../../../common/api-types';
import type { AdminClient } from '../client';
import { download, toCsv } from '../csv';
import { Behind, type Staleness } from './Behind';

type LintFinding = LintReport['findings'][number];
type LintExample = LintFinding['examples'][number];

/** A group's detail with its few records, for one cell of text. */
const withSample = (x: LintExample) => (x.sample?.length ? `${x.detail} (${x.sample.join('; ')})` : x.detail);

/** Every finding's examples, one row each (a finding without examples as one row of its own). */
function exportFindings(report: LintReport): void {
  download(
    'lint.csv',
    toCsv(
      ['rule', 'title', 'count', 'dataset', 'id', 'detail'],
      report.findings.flatMap((f) =>
        f.examples.length
          ? f.examples.map((x) => [f.rule, f.title, f.count, x.dataset, x.id, withSample(x)])
          : [[f.rule, f.title, f.count, undefined, undefined, undefined]],
      ),
    ),
  );
}

/** The feed lint: each of the spec's pitfalls with its count, why it matters, and examples that open their record. */
export function DataQuality({
  report,
  client,
  behind,
}: {
  report: LintReport;
  client: AdminClient;
  /** Read before the workspace last changed: said above the findings until they are read again. */
  behind?: Staleness;
}) {
  const found = report.findings.filter((f) => f.count > 0);
  const [onlyFound, setOnlyFound] = useState(false);
  const [mostFirst, setMostFirst] = useState(false);
  const [text, setText] = useState('');
  const shown = shownFindings(report.findings, { onlyFound, mostFirst, text });
  return (
    <section aria-label="Data quality" aria-busy={!!behind}>
      {behind && <Behind why={behind} of="Data quality" />}
      <div className="toolbar">
        <span className="hint">
          {found.length === 0
            ? 'No pitfall found.'
            : `${found.length} of ${report.findings.length} checks found something.`}
        </span>
        <input
          type="search"
          name="lint-text"
          aria-label="Filter the checks"
          placeholder="Filter: check, dataset, id"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <label className="check">
          <input type="checkbox" checked={onlyFound} onChange={(e) => setOnlyFound(e.target.checked)} /> Only what was
          found
        </label>
        <label className="check">
          <input type="checkbox" checked={mostFirst} onChange={(e) => setMostFirst(e.target.checked)} /> Most found
          first
        </label>
        <button type="button" onClick={() => exportFindings(report)}>
          Export CSV
        </button>
      </div>
      <ul className="findings">
        {shown.map((f) => (
          <FindingItem key={f.rule} finding={f} client={client} />
        ))}
      </ul>
    </section>
  );
}

/**
 * What a finding's records repeat, counted: 180 references that all name one SKU never sent are one thing to fix,
 * and say so before the examples.
 */
function Repeats({ finding: f, repeats }: { finding: LintFinding; repeats: NonNullable<LintFinding['repeats']> }) {
  const listed = repeats.top.reduce((n, r) => n + r.count, 0);
  return (
    <div className="finding__repeats" data-testid="repeats">
      <p>
        {repeats.groups === 1
          ? `All ${whole(f.count)} say one thing:`
          : `${whole(f.count)} in ${count(repeats.groups, 'kind')}; the most repeated:`}
      </p>
      <ul>
        {repeats.top.map((r) => (
          <li key={r.detail}>
            {r.detail} — {count(r.count, 'time')}, in {andList(r.datasets)}
          </li>
        ))}
        {repeats.groups > repeats.top.length && (
          <li>
            … and {count(repeats.groups - repeats.top.length, 'other')} ({whole(f.count - listed)} findings)
          </li>
        )}
      </ul>
    </div>
  );
}

const andList = (items: string[]) =>
  items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : items.join('');

/** One example; one that names a stored record shows it, as sent, on a click. */
function Example({ example: x, client }: { example: LintExample; client: AdminClient }) {
  const [shown, setShown] = useState<{ text: string; failed?: boolean }>();
  const toggle = async () => {
    if (shown) return setShown(undefined);
    try {
      setShown({
        text: JSON.stringify(
          await client.call('GET /data/*', { params: { '*': `${x.dataset}/${encodeURIComponent(x.id)}` } }),
          null,
          2,
        ),
      });
    } catch (e) {
      setShown({ text: `Could not open ${x.dataset} ${x.id}: ${(e as Error).message}`, failed: true });
    }
  };
  return (
    <li>
      {x.record ? (
        <button type="button" className="link" aria-expanded={shown !== undefined} onClick={() => void toggle()}>
          <code>
            {x.dataset} {x.id}
          </code>
        </button>
      ) : (
        <code>
          {x.dataset} {x.id}
        </code>
      )}{' '}
      {x.detail}
      {x.sample && x.sample.length > 0 && (
        <ul className="finding__sample" aria-label={`Some of ${x.id}'s records`}>
          {x.sample.map((r, i) => (
            <li key={i}>{r}</li>
          ))}
        </ul>
      )}
      {shown && (
        <pre className={shown.failed ? 'record record--failed' : 'record'} data-record={`${x.dataset}/${x.id}`}>
          {shown.text}
        </pre>
      )}
    </li>
  );
}

/** One check: its count and title, and where it found something, why it matters and its examples. */
function FindingItem({ finding: f, client }: { finding: LintReport['findings'][number]; client: AdminClient }) {
  return (
    <li className={f.count ? 'finding finding--bad' : 'finding'} data-rule={f.rule}>
      <div className="finding__head">
        <span className="finding__count">{whole(f.count)}</span>
        <span className="finding__title">{f.title}</span>
      </div>
      {f.count > 0 && (
        <>
          <p className="finding__why">{f.why}</p>
          {f.repeats && <Repeats finding={f} repeats={f.repeats} />}
          <ul className="finding__examples">
            {f.examples.map((x, i) => (
              <Example key={i} example={x} client={client} />
            ))}
            {f.count > f.examples.length && (
              <li className="finding__more">
                … and {whole(f.count - f.examples.length)} more (Export CSV lists the examples shown;{' '}
                <code>workbench lint</code> counts them all)
              </li>
            )}
          </ul>
        </>
      )}
    </li>
  );
}

/** The checks the filters let through: only those that found something if asked, matching the text, most first. */
export function shownFindings(
  findings: LintReport['findings'],
  { onlyFound, mostFirst, text }: { onlyFound: boolean; mostFirst: boolean; text: string },
): LintReport['findings'] {
  const needle = text.trim().toLowerCase();
  return findings
    .filter((f) => !onlyFound || f.count > 0)
    .filter(
      (f) =>
        !needle ||
        [f.rule, f.title, ...f.examples.flatMap((x) => [x.dataset, x.id, x.detail, ...(x.sample ?? [])])]
          .join(' ')
          .toLowerCase()
          .includes(needle),
    )
    .sort((a, b) => (mostFirst ? b.count - a.count : 0));
}
