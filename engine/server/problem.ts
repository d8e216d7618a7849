/** RFC 9457 problem bodies (docs/design.md §3): every error the server answers has this shape. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Problem } from '../model/problems.js';

export const PROBLEM_TYPE = 'application/problem+json';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  requestId?: string;
  errors?: Problem[];
  errorCount?: number;
  [extra: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Payload too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  417: 'Expectation failed',
  422: 'Unprocessable content',
  431: 'Request header fields too large',
  500: 'Internal server error',
  501: 'Not implemented',
};

/** A problem body without a request to refer to (one the HTTP parser refused). */
export function bareProblem(
  status: number,
  slug: string,
  detail: string,
  extra: Partial<ProblemBody> = {},
): ProblemBody {
  return {
    type: `urn:replenishment-workbench:problem:${slug}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    ...extra,
  };
}

export function problemBody(
  req: FastifyRequest,
  status: number,
  slug: string,
  detail: string,
  extra: Partial<ProblemBody> = {},
): ProblemBody {
  return bareProblem(status, slug, detail, { instance: req.url.split('?')[0], requestId: req.id, ...extra });
}

export function sendProblem(reply: FastifyReply, body: ProblemBody): FastifyReply {
  // The request log says why: a refusal without listed errors (a token, a body that is not JSON) keeps its detail.
  const audit = reply.request.audit;
  if (audit && !audit.errors?.length) {
    audit.errors = [{ path: '', message: body.detail }];
    audit.errorCount = 1;
  }
  return reply.code(body.status).type(PROBLEM_TYPE).send(body);
}

/** Thrown by route code for a problem it has already worded. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    message: string,
    readonly extra: Partial<ProblemBody> = {},
    /** Headers the answer carries besides the body (a 401's challenge). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
