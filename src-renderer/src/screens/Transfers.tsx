import { useState } from 'react';
import { count, whole } from '../../../common/format';
import { useNames } from '../use-names';
import type { ProposalRow } from '../client';
import type { Names } from '../names';
import { ApproveBatch } from './ApproveBatch';
import { TransferTable } from './TransferTable';
import { TransfersToolbar } from './TransfersToolbar';
import { exportTransfers } from './transfers-csv';
import { useTransfers } from './use-transfers';

interface Props {
  rows?: ProposalRow[];
  busy: boolean;
  run(): void;
  approve(referenceIds: string[], description: string, plannedDispatchDate: string): void;
}

/** A line in words, its locations and style by name: what the reason read in full speaks of. */
const lineWords = (r: ProposalRow, names: Names) =>
  `${r.transferType} ${names.location(r.fromLocationId)} → ${names.location(r.toLocationId)}, ${r.skuId}` +
  `${r.styleId ? ` (${names.style(r.styleId)})` : ''} × ${r.quantity}`;

/** Proposals and approved transfers: filter, read why, approve a selection as one batch, export. */
export function Transfers({ rows, busy, run, approve }: Props) {
  const names = useNames();
  const lines = useTransfers(rows, names);
  /** The line whose reason is read in full below the table. */
  const [reading, setReading] = useState<ProposalRow>();
  return (
    <section aria-label="Transfers">
      <TransfersToolbar
        busy={busy}
        filters={lines.filters}
        onFilter={lines.setFilter}
        onRun={run}
        onExport={() => exportTransfers(lines.sorted)}
        canExport={lines.shown.length > 0}
      />
      <p className="hint" data-testid="transfer-count">
        {rows === undefined
          ? 'No recommendations loaded yet.'
          : `${whole(lines.shown.length)} of ${count(rows.length, 'line')}, ${whole(lines.open)} open`}
      </p>
      {rows?.length === 0 && <NoProposals />}
      {rows !== undefined && rows.length > 0 && lines.shown.length === 0 && (
        <p className="empty" data-testid="none-shown">
          None of the {count(rows.length, 'line')} matches the filters above: clear them to see every line.
        </p>
      )}
      <TransferTable
        rows={lines.sorted}
        names={names}
        heading={lines.heading}
        selected={lines.selected}
        open={lines.open}
        openSelected={lines.openSelected}
        onToggle={lines.toggle}
        onToggleAll={lines.toggleAll}
        onRead={setReading}
      />
      {reading && (
        <p className="why-full" data-testid="why-full">
          <strong>{lineWords(reading, names)}:</strong> {reading.reason}
        </p>
      )}
      <ApproveBatch
        selected={lines.selected.size}
        busy={busy}
        onApprove={(description, dispatch) => {
          approve([...lines.selected], description, dispatch);
          lines.clearSelection();
        }}
      />
    </section>
  );
}

/** No proposals yet: what brings them, and where the data they come from is loaded. */
function NoProposals() {
  return (
    <div className="empty" data-testid="no-proposals">
      <p>
        No proposals yet. <strong>Run recommendations</strong> runs the engine on the workspace&apos;s data, as of the
        morning after its last sale or stock count: each transfer it proposes is listed here with its reason, to approve
        a selection as one batch that a client then reads at <code>GET /Recommendations/transfers</code>.
      </p>
      <p>
        A workspace without items, locations, stock and sales has nothing to propose from:{' '}
        <a className="link" href="#/workspace">
          load data first
        </a>
        .
      </p>
    </div>
  );
}
