/** Admin routes on the engine's transfers: the open proposals and approved transfers, and approving them. */
import { Type } from '@sinclair/typebox';
import { ApprovalRequestSchema, type ApprovalResult, type ProposalRow } from '../../service/transfers.js';
import { ARROW_STREAM, PROPOSAL_COLUMNS, TOTAL_COUNT_HEADER } from '../arrow.js';
import type { ServerContext } from '../context.js';
import { answer, routeFor } from './route.js';
import { PageQuery } from './schemas.js';

const route = routeFor<ServerContext>();

export const transferRoutes = {
  'GET /transfers': route({
    summary:
      'Open proposals and approved transfers, with their reasons; as an Arrow IPC stream with ' +
      `Accept: ${ARROW_STREAM} (the total in ${TOTAL_COUNT_HEADER})`,
    query: Type.Object({
      ...PageQuery,
      approved: Type.Optional(Type.Boolean({ description: 'Only approved (true) or only open (false) ones.' })),
    }),
    arrow: { rows: 'proposals', columns: PROPOSAL_COLUMNS },
    response: answer<{ proposals: ProposalRow[]; total: number }>(
      'ProposalPage',
      '{proposals, total}: a page of proposals, each with its reason and details, and how many there are in all.',
    ),
    handle: async ({ query }, { wb }) =>
      wb.proposals({ offset: query.offset ?? 0, limit: query.limit ?? 100, approved: query.approved }),
  }),

  'POST /transfers/approve': route({
    summary: 'Approve open proposals as one batch; no body approves every open proposal',
    body: ApprovalRequestSchema,
    bodyOptional: true,
    response: answer<ApprovalResult>('ApprovalResult', 'The batch: its id, how many it approved, and when.'),
    handle: async ({ body }, { wb }) => wb.approveTransfers(body),
  }),
};
