import type { DatasetSummary } from '../../../engine/service/workbench';

const day = (iso?: string) => (iso ? iso.slice(0, 10) : '');

/** Counts, date ranges and last refresh of every dataset that holds data. */
export function Datasets({ summary }: { summary: DatasetSummary[] }) {
  const filled = summary.filter((s) => s.live || s.deleted || s.stagedFullLoad);
  if (filled.length === 0)
    return <p className="empty">This workspace holds no data yet: load files or post to the local API.</p>;
  return (
    <table className="grid" aria-label="Datasets">
      <thead>
        <tr>
          <th>Dataset</th>
          <th className="num">Records</th>
          <th className="num">Deleted</th>
          <th>From</th>
          <th>To</th>
          <th>Last written</th>
        </tr>
      </thead>
      <tbody>
        {filled.map((s) => (
          <tr key={s.dataset} data-dataset={s.dataset}>
            <td>
              {s.dataset}
              {s.stagedFullLoad ? ` (split full load open: ${s.stagedFullLoad.calls} calls)` : ''}
            </td>
            <td className="num">{s.live.toLocaleString('en')}</td>
            <td className="num">{s.deleted.toLocaleString('en')}</td>
            <td>{day(s.from)}</td>
            <td>{day(s.to)}</td>
            <td>{s.lastWrite ? s.lastWrite.replace('T', ' ').slice(0, 16) : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
