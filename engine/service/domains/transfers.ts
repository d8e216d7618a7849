/**
 * Transfers: the open proposals of the latest recommendation run, their approval as one user action, and the
 * approved transfers the API's GET /Recommendations/transfers hands out.
 */
import { approve, approvedTransfers, listProposals, type ApprovalRequest, type ApprovalResult } from '../transfers.js';
import { clearTables, type ClearsOnReset, type ServiceContext } from './context.js';

export class TransferService implements ClearsOnReset {
  constructor(private readonly ctx: ServiceContext) {}

  /** Approves open proposals as one batch (one user action). */
  approveTransfers(request: ApprovalRequest): Promise<ApprovalResult> {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => ws.transaction(() => approve(ws, request, this.ctx.stamp())));
  }

  /** GET /Recommendations/transfers. */
  transfers(query: { offset: number; limit: number; fromConfirmedDateTime?: number }) {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => approvedTransfers(ws, query));
  }

  proposals(query: { offset: number; limit: number; approved?: boolean }) {
    const ws = this.ctx.workspace;
    return ws.exclusive(() => listProposals(ws, query));
  }

  /** Every proposal, approved or not. */
  clear(): Promise<void> {
    return clearTables(this.ctx, ['transfer_proposals']);
  }
}
