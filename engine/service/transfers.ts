/**
 * Recommended transfers: the proposals of the latest run, and the approved ones the API hands out.
 * An approval is one user action: one approvalBatchId, one confirmedDateTime for all it approves.
 */
import { Type, type Static } from '@sinclair/typebox';
import { listValue, type DuckDBDateValue, type DuckDBTimestampValue } from '@duckdb/node-api';
import { formatIsoMicros, parseIsoMicros } from '../model/datetime.js';
import { DateOnly } from '../model/fields.js';
import type { Proposal, TransferType } from '../recommend/proposal.js';
import { clip, RequestRejected, ValidationFailed, type Problem } from '../model/problems.js';
import { timestampValue, toDuck } from '../store/values.js';
import { appendRows } from '../store/append.js';
import type { ColumnType } from '../store/table-plan.js';
import type { Workspace } from '../store/workspace.js';

export type { Proposal, TransferType };

export interface RunSummary {
  runId: string;
  asOf: string;
  proposals: number;
  byType: Record<string, { transfers: number; units: number }>;
  autoApproved?: ApprovalResult;
}

/** The spec's Transfer output record. */
export interface TransferOut {
  fromLocationId: string;
  toLocationId: string;
  skuId: string;
  quantity: number;
  referenceId: string;
  approvalBatchId: string;
  fromLocationGLN: string | null;
  toLocationGLN: string | null;
  transferType: TransferType;
  approvalBatchDescription?: string;
  plannedDispatchDate?: string;
}

/** Longest approval batch description kept. */
const DESCRIPTION_MAX = 1000;

export const ApprovalRequestSchema = Type.Object(
  {
    referenceIds: Type.Optional(
      Type.Array(Type.String(), {
        minItems: 1,
        description: 'The proposals to approve; every open proposal when absent.',
      }),
    ),
    description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX, description: "The batch's description." })),
    plannedDispatchDate: Type.Optional(DateOnly('The day the transfers leave (YYYY-MM-DD).')),
  },
  { additionalProperties: false },
);
export type ApprovalRequest = Static<typeof ApprovalRequestSchema>;

export interface ApprovalResult {
  approvalBatchId: string;
  approved: number;
  confirmedDateTime: string;
}

/** Column types of transfer_proposals, in table order (migration 2). */
const PROPOSAL_COLUMNS: ColumnType[] = [
  'VARCHAR',
  'VARCHAR',
  'VARCHAR',
  'VARCHAR',
  'VARCHAR',
  'VARCHAR',
  'DOUBLE',
  'VARCHAR',
  'VARCHAR',
  'TIMESTAMP',
  'VARCHAR',
  'TIMESTAMP',
  'VARCHAR',
  'DATE',
];

/** A row of transfer_proposals (its transferType is a Proposal's, as storeRun wrote it). */
interface ProposalDbRow extends Omit<Proposal, 'details'> {
  runId: string;
  /** The details as JSON text. */
  details: string | null;
  createdAt: DuckDBTimestampValue;
  approvalBatchId: string | null;
  confirmedDateTime: DuckDBTimestampValue | null;
  approvalBatchDescription: string | null;
  plannedDispatchDate: DuckDBDateValue | null;
}

export const TRANSFERS_DEFAULT_LIMIT = 1000;
export const TRANSFERS_MAX_LIMIT = 10_000;

export async function storeRun(
  ws: Workspace,
  proposals: Proposal[],
  asOf: number,
  started: number,
  finished: number,
): Promise<RunSummary> {
  const runId = `run-${finished.toString(36)}`;
  // Open proposals of earlier runs are superseded; approved ones stay, and are not proposed again.
  await ws.run('DELETE FROM transfer_proposals WHERE approvalBatchId IS NULL');
  const approved = new Set(
    (await ws.rows<{ referenceId: string }>('SELECT referenceId FROM transfer_proposals')).map((r) => r.referenceId),
  );
  const fresh = proposals.filter((p) => !approved.has(p.referenceId));
  const created = timestampValue(finished);
  await appendRows(
    ws,
    'transfer_proposals',
    PROPOSAL_COLUMNS,
    fresh.map((p) => [
      p.referenceId,
      runId,
      p.transferType,
      p.fromLocationId,
      p.toLocationId,
      p.skuId,
      p.quantity,
      p.reason,
      p.details ? JSON.stringify(p.details) : null,
      created,
      null,
      null,
      null,
      null,
    ]),
  );
  const byType: RunSummary['byType'] = {};
  for (const p of fresh) {
    const t = (byType[p.transferType] ??= { transfers: 0, units: 0 });
    t.transfers++;
    t.units += p.quantity;
  }
  await ws.run('INSERT INTO recommendation_runs VALUES ($1, $2, $3, $4, $5, $6)', [
    runId,
    timestampValue(started),
    timestampValue(finished),
    timestampValue(asOf),
    fresh.length,
    JSON.stringify(byType),
  ]);
  return { runId, asOf: formatIsoMicros(asOf), proposals: fresh.length, byType };
}

function checkApproval(req: ApprovalRequest): Problem[] {
  // An approval without a list approves every open proposal: a body that is no object at all must not read as one.
  if (req === null || typeof req !== 'object' || Array.isArray(req)) {
    return [{ path: '', message: 'the body must be an object {referenceIds?, description?, plannedDispatchDate?}' }];
  }
  const problems: Problem[] = [];
  if (
    req.referenceIds !== undefined &&
    (!Array.isArray(req.referenceIds) || req.referenceIds.some((r) => typeof r !== 'string'))
  ) {
    problems.push({ path: '/referenceIds', message: 'must be an array of referenceId strings' });
  } else if (req.referenceIds?.length === 0) {
    problems.push({
      path: '/referenceIds',
      message: 'is empty: name the proposals to approve, or leave it out to approve every open proposal',
    });
  }
  if (
    req.description !== undefined &&
    (typeof req.description !== 'string' || req.description.length > DESCRIPTION_MAX)
  ) {
    problems.push({ path: '/description', message: `must be text of at most ${DESCRIPTION_MAX} characters` });
  }
  if (
    req.plannedDispatchDate !== undefined &&
    (typeof req.plannedDispatchDate !== 'string' ||
      !/^\d{4}-\d{2}-\d{2}$/.test(req.plannedDispatchDate) ||
      parseIsoMicros(req.plannedDispatchDate) === undefined)
  ) {
    problems.push({ path: '/plannedDispatchDate', message: 'must be a date YYYY-MM-DD' });
  }
  return problems;
}

export async function approve(ws: Workspace, req: ApprovalRequest, now: number): Promise<ApprovalResult> {
  const problems = checkApproval(req);
  if (problems.length) throw new ValidationFailed('approval', problems, problems.length);
  let ids: string[];
  if (req.referenceIds) {
    const open = new Set(
      (
        await ws.rows<{ referenceId: string }>(
          'SELECT referenceId FROM transfer_proposals ' +
            'WHERE approvalBatchId IS NULL AND referenceId IN (SELECT unnest($1::VARCHAR[]))',
          [listValue(req.referenceIds)],
        )
      ).map((r) => r.referenceId),
    );
    const missing = req.referenceIds.map((id, i) => ({ id, i })).filter((x) => !open.has(x.id));
    if (missing.length) {
      throw new ValidationFailed(
        'approval',
        missing.slice(0, 1000).map((m) => ({
          path: `/referenceIds/${m.i}`,
          message: `"${clip(m.id, 100)}" is not an open proposal (unknown, superseded or already approved)`,
        })),
        missing.length,
      );
    }
    ids = [...open];
  } else {
    ids = (
      await ws.rows<{ referenceId: string }>('SELECT referenceId FROM transfer_proposals WHERE approvalBatchId IS NULL')
    ).map((r) => r.referenceId);
  }
  const approvalBatchId = `AB-${now.toString(36).toUpperCase()}`;
  if (ids.length === 0)
    throw new RequestRejected('there are no open proposals to approve; run the recommendations first', 409);
  const n = await ws.run(
    `UPDATE transfer_proposals SET approvalBatchId = $1, confirmedDateTime = $2, approvalBatchDescription = $3,
       plannedDispatchDate = $4
     WHERE approvalBatchId IS NULL AND referenceId IN (SELECT unnest($5::VARCHAR[]))`,
    [
      approvalBatchId,
      timestampValue(now),
      req.description ?? null,
      toDuck('DATE', req.plannedDispatchDate),
      listValue(ids),
    ],
  );
  return { approvalBatchId, approved: n, confirmedDateTime: formatIsoMicros(now) };
}

/** GET /Recommendations/transfers: approved transfers not yet carried out by a client-sent transfer. */
export async function approvedTransfers(
  ws: Workspace,
  query: { offset: number; limit: number; fromConfirmedDateTime?: number },
): Promise<{ transfers: TransferOut[]; offset: number; limit: number; moreRecordsAvailable: boolean }> {
  const rows = await ws.rows<
    ProposalDbRow & { approvalBatchId: string; fromGln: string | null; toGln: string | null; dispatch: string | null }
  >(
    `SELECT p.*, f.gln AS fromGln, t.gln AS toGln, strftime(p.plannedDispatchDate, '%Y-%m-%d') AS dispatch
     FROM transfer_proposals AS p
     LEFT JOIN locations AS f ON f.locationId = p.fromLocationId AND f._deleted_at IS NULL
     LEFT JOIN locations AS t ON t.locationId = p.toLocationId AND t._deleted_at IS NULL
     WHERE p.approvalBatchId IS NOT NULL AND ($1::TIMESTAMP IS NULL OR p.confirmedDateTime >= $1::TIMESTAMP)
       AND NOT EXISTS (SELECT 1 FROM transfers AS c WHERE c.referenceId = p.referenceId AND c._deleted_at IS NULL)
     ORDER BY p.confirmedDateTime, p.referenceId
     LIMIT $2 OFFSET $3`,
    [
      query.fromConfirmedDateTime === undefined ? null : timestampValue(query.fromConfirmedDateTime),
      query.limit + 1,
      query.offset,
    ],
  );
  const more = rows.length > query.limit;
  const transfers = rows.slice(0, query.limit).map((r) => {
    const out: TransferOut = {
      fromLocationId: r.fromLocationId,
      toLocationId: r.toLocationId,
      skuId: r.skuId,
      quantity: Number(r.quantity),
      referenceId: r.referenceId,
      approvalBatchId: r.approvalBatchId,
      fromLocationGLN: r.fromGln,
      toLocationGLN: r.toGln,
      transferType: r.transferType,
    };
    if (r.approvalBatchDescription !== null) out.approvalBatchDescription = r.approvalBatchDescription;
    if (r.dispatch !== null) out.plannedDispatchDate = r.dispatch;
    return out;
  });
  return { transfers, offset: query.offset, limit: query.limit, moreRecordsAvailable: more };
}

export interface ProposalRow extends Proposal {
  runId: string;
  /** The SKU's style, when the SKU was sent in Items. */
  styleId?: string;
  approvalBatchId?: string;
  confirmedDateTime?: string;
}

/** Open proposals and approved transfers, for people (admin API, UI). */
export async function listProposals(
  ws: Workspace,
  query: { offset: number; limit: number; approved?: boolean },
): Promise<{ proposals: ProposalRow[]; total: number }> {
  const where =
    query.approved === undefined
      ? ''
      : query.approved
        ? 'WHERE approvalBatchId IS NOT NULL'
        : 'WHERE approvalBatchId IS NULL';
  const rows = await ws.rows<ProposalDbRow & { confirmedUs: bigint | null; styleId: string | null }>(
    `SELECT p.*, epoch_us(p.confirmedDateTime) AS confirmedUs,
      (SELECT any_value(s.styleId) FROM items__skus AS s WHERE s.skuId = p.skuId) AS styleId
    FROM transfer_proposals AS p ${where}
    ORDER BY p.transferType, p.toLocationId, p.skuId, p.referenceId LIMIT $1 OFFSET $2`,
    [query.limit, query.offset],
  );
  // Counted on its own, so a page past the end still says how many there are.
  const [{ n }] = await ws.rows<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM transfer_proposals ${where}`);
  return {
    total: Number(n),
    proposals: rows.map((r) => {
      const p: ProposalRow = {
        referenceId: r.referenceId,
        runId: r.runId,
        transferType: r.transferType,
        fromLocationId: r.fromLocationId,
        toLocationId: r.toLocationId,
        skuId: r.skuId,
        quantity: Number(r.quantity),
        reason: r.reason,
      };
      if (r.details !== null) p.details = JSON.parse(r.details);
      if (r.styleId !== null) p.styleId = r.styleId;
      if (r.approvalBatchId !== null) {
        p.approvalBatchId = r.approvalBatchId;
        p.confirmedDateTime = formatIsoMicros(Number(r.confirmedUs));
      }
      return p;
    }),
  };
}
