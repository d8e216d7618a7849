import type { DatasetSummary } from '../../../common/api-types';
import { count, whole } from '../../../common/format';
import { useWorkbench } from '../store';
import { Behind, type Staleness } from './Behind';

const day = (iso?: string) => (iso ? iso.slice(0, 10) : '');

/**
 * Counts, date ranges and last refresh of every dataset that holds data. `behind`: they were read before the
 * workspace last changed, and say so (the table is busy) until they are read again.
 */
export function Datasets({ summary, behind }: { summary: DatasetSummary[]; behind?: Staleness }) {
  const filled = summary.filter((s) => s.live || s.deleted || s.stagedFullLoad);
  return (
    <>
      {behind && <Behind why={behind} of="Datasets" />}
      {filled.length === 0 ? <FirstRun behind={!!behind} /> : <Counts filled={filled} behind={!!behind} />}
    </>
  );
}

function Counts({ filled, behind }: { filled: DatasetSummary[]; behind: boolean }) {
  return (
    <table className={behind ? 'grid grid--behind' : 'grid'} aria-label="Datasets" aria-busy={behind}>
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
            <td className="num">{whole(s.live)}</td>
            <td className="num">{whole(s.deleted)}</td>
            <td>{day(s.from)}</td>
            <td>{day(s.to)}</td>
            <td>{s.lastWrite ? s.lastWrite.replace('T', ' ').slice(0, 16) : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What an empty workspace can be given, and where: the demo at a click, the user's own files, or a feed. */
function FirstRun({ behind }: { behind: boolean }) {
  const { loadDemo, loadRunning, loadJob } = useWorkbench();
  const p = loadJob?.progress;
  return (
    <div className="empty first-run" data-testid="first-run" aria-busy={behind}>
      <p>This workspace holds no data yet. To start:</p>
      <ul>
        <li>
          <button type="button" onClick={() => void loadDemo()} disabled={loadRunning}>
            {loadRunning ? 'Loading the demo…' : 'Load the demo'}
          </button>{' '}
          — two years of a small fashion retailer (items, stores, stock, purchase orders, sales), ready for a backtest.
          {loadRunning && p && (
            <span className="hint" data-testid="demo-progress">
              {' '}
              {whole(p.filesDone)} of {count(p.files, 'file')} · {count(p.records, 'record')}
            </span>
          )}
        </li>
        <li>
          Or{' '}
          <a className="link" href="#/load">
            load your files
          </a>{' '}
          — JSON as the API takes it, or CSV exported from a spreadsheet, one file per kind of row; every row is checked
          before anything loads.
        </li>
        <li>
          Or rehearse a feed:{' '}
          <a className="link" href="#/integration">
            start the local API
          </a>{' '}
          and point your client at it; every request shows in the log with what went wrong.
        </li>
      </ul>
    </div>
  );
}
