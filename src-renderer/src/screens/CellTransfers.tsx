import type { CellDays } from '../client';
import type { Names } from '../names';
import { TRANSFER_KIND, units } from '../units';

/** The engine's transfers of a SKU to or from a location: when sent and arriving, what kind, and why. */
export function CellTransfers({ transfers, names }: { transfers: CellDays['transfers']; names: Names }) {
  if (transfers.length === 0) return <p className="hint">The engine moved none of this SKU to or from here.</p>;
  return (
    <table className="grid" aria-label="The engine's transfers">
      <thead>
        <tr>
          <th>Sent</th>
          <th>Arrives</th>
          <th>Kind</th>
          <th>From</th>
          <th>To</th>
          <th className="num">Units</th>
          <th>Why</th>
        </tr>
      </thead>
      <tbody>
        {transfers.map((x) => (
          <tr key={x.referenceId} data-direction={x.direction}>
            <td className="nowrap">{x.date}</td>
            <td className="nowrap">{x.arrives}</td>
            <td>{TRANSFER_KIND[x.transferType] ?? x.transferType}</td>
            <td className="nowrap" title={names.location(x.fromLocationId)}>
              {x.fromLocationId}
            </td>
            <td className="nowrap" title={names.location(x.toLocationId)}>
              {x.toLocationId}
            </td>
            <td className="num">{units(x.quantity)}</td>
            <td className="why-text">{x.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
