import { decimal } from '../../../common/format';
import type { CellDays } from '../client';
import { units } from '../units';

/** Each review of a cell: the engine's estimate and target, what it sent, or why it sent nothing. */
export function CellReviews({ reviews }: { reviews: CellDays['reviews'] }) {
  if (reviews.length === 0) return <p className="hint">No review fell in the period.</p>;
  return (
    <div className="scroll">
      <table className="grid" aria-label="Each review">
        <thead>
          <tr>
            <th>Review</th>
            <th className="num">Estimate (a day)</th>
            <th className="num">Target</th>
            <th className="num">Sent</th>
            <th>What it did</th>
          </tr>
        </thead>
        <tbody>
          {reviews.map((r) => (
            <tr key={r.date} data-outcome={r.outcome}>
              <td className="nowrap">{r.date}</td>
              <td className="num">{decimal(r.estimate, 2)}</td>
              <td className="num">{units(r.target)}</td>
              <td className="num">{units(r.sent)}</td>
              <td>{r.outcome === 'sent' ? 'sent' : `sent nothing: ${r.outcome}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
