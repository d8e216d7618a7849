/** What the routes share, and what each request records for the request log. */
import type { Problem } from '../model/problems.js';
import type { Workbench } from '../service/workbench.js';
import type { TokenIssuer } from './auth.js';

export interface ServerContext {
  wb: Workbench;
  tokens: TokenIssuer;
  /** Approve each run's proposals at once (rehearsal). */
  autoApprove: boolean;
  /** What an integrator's client needs to reach this server. */
  /** `url` and `curl` once the server listens (the desktop app answers in process, without a port). */
  integration: () => { url?: string; tenant: string; clientId: string; clientSecret: string; curl?: string };
}

export interface Audit {
  dataset?: string;
  records?: number;
  errors?: Problem[];
  errorCount?: number;
  warnings?: Problem[];
  /** The body holds secrets: keep no excerpt. */
  secret?: boolean;
  /** Not worth a log entry (the log reading itself). */
  quiet?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The request's query and body hold secrets (known from the route before the body is read). */
    secret?: boolean;
    /** Answered without a token. */
    public?: boolean;
    /** Takes a form-encoded body (the token request) as well as JSON. */
    form?: boolean;
  }
  interface FastifyRequest {
    audit: Audit;
    bodyExcerpt?: string;
    /** The start of the JSON answer, for the request log. */
    responseExcerpt?: string;
  }
}
