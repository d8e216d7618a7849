/** An entry of the request log: what an API request did, as the workspace keeps it (service/request-log.ts). */
import type { Problem } from './problems.js';

export interface RequestLogInput {
  requestId: string;
  tenant?: string;
  method: string;
  path: string;
  query?: string;
  status: number;
  durationMs: number;
  dataset?: string;
  records?: number;
  errors?: Problem[];
  errorCount?: number;
  warnings?: Problem[];
  bodyExcerpt?: string;
  /** The local port the request came in on (none for the desktop app's calls, which come over no port). */
  port?: number;
  /** The start of the response's body as sent (JSON only; never a token's). */
  responseExcerpt?: string;
}

export interface RequestLogEntry extends Required<
  Pick<RequestLogInput, 'requestId' | 'method' | 'path' | 'status' | 'durationMs'>
> {
  id: number;
  loggedAt: string;
  tenant?: string;
  query?: string;
  dataset?: string;
  records?: number;
  errorCount: number;
  errors: Problem[];
  warningCount: number;
  warnings: Problem[];
  bodyExcerpt?: string;
  port?: number;
  responseExcerpt?: string;
}
