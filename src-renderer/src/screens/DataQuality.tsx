import { useState } from 'react';
import type { LintReport } from '../../../engine/ingest/lint';
import type { AdminClient } from '../client';

/** The feed lint: each of the spec's pitfalls with its count, why it matters, and examples that open their record. */
export function DataQuality({ report, client }: { report: LintReport; client: AdminClient }) {
  const found = report.findings.filter((f) => f.count > 0);
  return (
    <section aria-label="Data quality">
      <p className="hint">
        {found.length === 0
          ? 'No pitfall found.'
          : `${found.length} of ${report.findings.length} checks found something.`}
      </p>
      <ul className="findings">
        {report.findings.map((f) => (
          <li key={f.rule} className={f.count ? 'finding finding--bad' : 'finding'} data-rule={f.rule}>
            <div className="finding__head">
              <span className="finding__count">{f.count.toLocaleString('en')}</span>
              <span className="finding__title">{f.title}</span>
            </div>
            {f.count > 0 && (
              <>
                <p className="finding__why">{f.why}</p>
                <ul className="finding__examples">
                  {f.examples.map((x, i) => (
                    <Example key={i} example={x} client={client} />
                  ))}
                </ul>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

type LintExample = LintReport['findings'][number]['examples'][number];

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
      {shown && (
        <pre className={shown.failed ? 'record record--failed' : 'record'} data-record={`${x.dataset}/${x.id}`}>
          {shown.text}
        </pre>
      )}
    </li>
  );
}
