import type { LintReport } from '../../../engine/ingest/lint';

/** The feed lint: each of the spec's pitfalls with its count, why it matters, and examples. */
export function DataQuality({ report }: { report: LintReport }) {
  const found = report.findings.filter((f) => f.count > 0);
  return (
    <section aria-label="Data quality">
      <p className="hint">{found.length === 0 ? 'No pitfall found.' : `${found.length} of ${report.findings.length} checks found something.`}</p>
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
                  {f.examples.map((x, i) => <li key={i}><code>{x.dataset} {x.id}</code> {x.detail}</li>)}
                </ul>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
