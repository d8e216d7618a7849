import type { ProposalRow } from '../client';
import { download, toCsv } from '../csv';

/** The lines as shown, every field by its API name, for a spreadsheet. */
export function exportTransfers(rows: readonly ProposalRow[]): void {
  download(
    'transfers.csv',
    toCsv(
      [
        'referenceId',
        'transferType',
        'fromLocationId',
        'toLocationId',
        'skuId',
        'styleId',
        'quantity',
        'approvalBatchId',
        'reason',
      ],
      rows.map((r) => [
        r.referenceId,
        r.transferType,
        r.fromLocationId,
        r.toLocationId,
        r.skuId,
        r.styleId,
        r.quantity,
        r.approvalBatchId,
        r.reason,
      ]),
    ),
  );
}
