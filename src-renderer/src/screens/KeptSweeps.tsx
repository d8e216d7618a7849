import type { SweepHeader } from '../client';
import { settingName } from '../../../common/setting-names';

/** The sweeps kept in the workspace, each opened by its address and deleted with its runs. */
export function KeptSweeps({ kept, remove }: { kept?: SweepHeader[]; remove: (sweepId: string) => void }) {
  return (
    <>
      {kept && kept.length === 0 && <p className="empty">No sweep kept yet: set one up above.</p>}
      {kept && kept.length > 0 && (
        <table className="grid" aria-label="Kept sweeps">
          <thead>
            <tr>
              <th>Sweep</th>
              <th>Period</th>
              <th>Grid</th>
              <th className="num">Points</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {kept.map((s) => (
              <tr key={s.sweepId} data-sweep={s.sweepId}>
                <td className="nowrap">
                  <a className="link" href={`#/sweep/${encodeURIComponent(s.sweepId)}`}>
                    {s.sweepId}
                  </a>
                  <div className="hint">{s.createdAt.slice(0, 16).replace('T', ' ')}</div>
                </td>
                <td className="nowrap">
                  {s.from} … {s.to}
                </td>
                <td title={s.axes.map((a) => a.setting).join(' × ')}>
                  {s.axes.map((a) => `${settingName(a.setting)} ${a.values.join(', ')}`).join(' × ')}
                </td>
                <td className="num">{s.points}</td>
                <td>{s.status}</td>
                <td>
                  <button type="button" onClick={() => remove(s.sweepId)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
