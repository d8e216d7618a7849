/**
 * The HTTP adapter: the service's API plus the `/_workbench/` admin API, calling the application service
 * only. No request, however broken, stops the server: every error becomes a problem body.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import { DATASETS, UnknownDatasetError } from '../model/datasets.js';
import { clip, RequestRejected, ValidationFailed, type Problem } from '../model/problems.js';
import { MAX_PROBLEM_TEXT } from '../ingest/validate.js';
import { SettingsInvalid } from '../recommend/settings-schema.js';
import type { Workbench } from '../service/workbench.js';
import { TokenIssuer, tokenRequestCurl, type Credentials } from './auth.js';
import type { ServerContext } from './context.js';
import type { DeskControls } from './desk-controls.js';
import { HttpProblem, problemBody, sendProblem, type ProblemBody } from './problem.js';
import { parseQueryString } from './query.js';
import { refusals } from './refusals.js';
import { checkRequest } from './request-checks.js';
import { registerAdminRoutes } from './admin/register.js';
import { ADMIN_ROUTES, DESK_ROUTES } from './admin/table.js';
import { uiRoutes } from './routes/ui.js';
import { apiRoutes } from './routes/api.js';
import { ProblemSchema } from './schemas.js';
import { BODY_EXCERPT_CHARS } from '../service/request-log.js';
import { EXCERPT_MARGIN_CHARS, redactEntry } from './redact.js';

export interface ServerOptions extends Credentials {
  workbench: Workbench;
  /** Where clients reach this server, for the UI's integration screen (set once listening). */
  publicUrl?: () => string | undefined;
  autoApprove?: boolean;
  tokenLifetimeSeconds?: number;
  /** Browser mode: the built renderer to serve at / (out/renderer). */
  uiRoot?: string;
  /** The app's workspace switching and API listener, when this server answers the app's screens. */
  desk?: DeskControls;
  /** A UI session key valid on this server from the start (the app keeps one across workspace switches). */
  sessionToken?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A bearer token for the workbench's own UI (browser mode). */
    issueSessionToken(): string;
  }
}

const LARGEST_BODY = Math.max(...DATASETS.map((d) => d.bodyLimit));

/** Warnings a refusal carries: the first few, each clipped, so a hostile body cannot make the answer huge. */
const LISTED_WARNINGS = 20;
const listedWarnings = (warnings: readonly Problem[]): Problem[] =>
  warnings.slice(0, LISTED_WARNINGS).map((w) => ({
    ...w,
    path: clip(w.path, MAX_PROBLEM_TEXT),
    message: clip(w.message, MAX_PROBLEM_TEXT),
    ...(w.recordId === undefined ? {} : { recordId: clip(w.recordId, MAX_PROBLEM_TEXT) }),
  }));
const ADMIN_PREFIX = '/_workbench';
const MAX_PATH_SEGMENT = 1000;

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const wb = options.workbench;
  const tokens = new TokenIssuer(options, () => wb.now() / 1000, options.tokenLifetimeSeconds);
  if (options.sessionToken) tokens.issueSession(options.sessionToken);
  const ctx = serverContext(options, tokens);

  const logAnswered = requestLogger(wb, tokens);

  // Requests the HTTP parser refuses, and the ones Node would answer without a body, get problems too.
  const refused = refusals();
  const app = newFastify(refused.clientError, logAnswered);
  refused.watch(app.server);

  // The service's own endpoints validate their bodies in the service (with record ids and its own messages): their
  // route schemas only document. The admin routes validate each part against their schemas (admin/validate.ts).
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));

  app.decorateRequest('audit', null as never);
  app.addHook('onRequest', async (req, reply) => {
    // Known before the body is read, from the route the router found (however the path was spelled or encoded):
    // a token request's body and query hold the client secret.
    req.audit = { secret: req.routeOptions.config?.secret === true };
    reply.header('X-Request-Id', req.id);
  });
  app.addHook('onRequest', checkRequest);

  // The start of a JSON answer, for the request log to open to (a token's answer is the token: never kept).
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.audit?.secret && typeof payload === 'string' && /json/.test(String(reply.getHeader('content-type'))))
      req.responseExcerpt = payload.slice(0, BODY_EXCERPT_CHARS + EXCERPT_MARGIN_CHARS);
    return payload;
  });

  await parseBodies(app);

  await describeApi(app);

  // Every route but /Token and /openapi.json needs a valid token for this tenant.
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.public) return;
    if (!req.routeOptions.url) return; // unknown path: answered 404 below
    tokens.verify(req);
  });

  app.setNotFoundHandler((req, reply) =>
    sendProblem(
      reply,
      problemBody(
        req,
        404,
        'not-found',
        `no endpoint ${req.method} ${clip(req.url.split('?')[0], MAX_PROBLEM_TEXT)}; see GET /openapi.json`,
      ),
    ),
  );

  app.setErrorHandler((error: FastifyError | Error, req, reply) => answerError(error, req, reply, tokens));

  app.addHook('onResponse', logAnswered);

  app.decorate('issueSessionToken', () => tokens.issueSession());
  if (options.uiRoot) await app.register(uiRoutes(options.uiRoot));

  // Routes last: handlers and hooks set above apply to them.
  await app.register(apiRoutes(ctx, false));
  await app.register(apiRoutes(ctx, true), { prefix: '/v1' });
  await app.register(async (admin) => registerAdminRoutes(admin, ADMIN_ROUTES, ctx), { prefix: ADMIN_PREFIX });
  const desk = options.desk;
  if (desk)
    await app.register(async (admin) => registerAdminRoutes(admin, DESK_ROUTES, { desk }), { prefix: ADMIN_PREFIX });

  return app;
}

export type { FastifyRequest };

/** What the routes share: the service, the tokens and how a client reaches this server. */
function serverContext(options: ServerOptions, tokens: TokenIssuer): ServerContext {
  return {
    wb: options.workbench,
    tokens,
    autoApprove: options.autoApprove === true,
    integration: () => {
      const url = options.publicUrl?.();
      return {
        url,
        tenant: options.tenant,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        ...(url ? { curl: tokenRequestCurl(url, options) } : {}),
      };
    },
  };
}

/** The framework, set to answer as the API does: every refusal a problem body, paths read as the service reads them. */
function newFastify(
  clientError: ReturnType<typeof refusals>['clientError'],
  logAnswered: (req: FastifyRequest, reply: FastifyReply) => Promise<void>,
): FastifyInstance {
  return Fastify({
    logger: false,
    clientErrorHandler: clientError,
    // The Host check is the routes' (request-checks.ts), so its refusal is a problem body, not Node's bare 400.
    http: { requireHostHeader: false },
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    // Stopping means stopping: kept-alive client connections do not hold the process open.
    forceCloseConnections: true,
    // A path the router cannot read is answered like every other error: a problem body, not the framework's own.
    frameworkErrors: (error, req, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      // No hooks run for a request the router could not read: it is logged here, once answered.
      reply.header('X-Request-Id', req.id);
      reply.raw.once('finish', () => void logAnswered(req, reply));
      return sendProblem(
        reply,
        problemBody(
          req,
          tooLong ? 414 : 400,
          tooLong ? 'path-too-long' : 'invalid-path',
          tooLong
            ? `a segment of the path is longer than ${MAX_PATH_SEGMENT} characters`
            : 'the path is not valid: a percent sign must start a %XX escape of UTF-8',
        ),
      );
    },
    routerOptions: {
      // A record id of 80 characters, percent-encoded, fits.
      maxParamLength: MAX_PATH_SEGMENT,
      caseSensitive: false,
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: true,
      querystringParser: parseQueryString,
    },
  });
}

/** What writes the request log's entry for an answered request (routed or not), without secrets. */
function requestLogger(wb: Workbench, tokens: TokenIssuer) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (req.audit?.quiet) return;
    const a = req.audit ?? {};
    const [path, query] = req.url.split('?');
    await wb
      .logRequest(
        redactEntry(
          {
            requestId: req.id,
            tenant: typeof req.headers['x-tenant'] === 'string' ? req.headers['x-tenant'].slice(0, 80) : undefined,
            method: req.method,
            path: path.slice(0, 1000),
            query: a.secret || query === undefined ? undefined : query.slice(0, 1000),
            status: reply.statusCode,
            durationMs: reply.elapsedTime,
            dataset: a.dataset,
            records: a.records,
            errors: a.errors,
            errorCount: a.errorCount,
            warnings: a.warnings,
            bodyExcerpt: a.secret ? undefined : req.bodyExcerpt,
            responseExcerpt: a.secret ? undefined : req.responseExcerpt,
            ...(typeof req.socket?.localPort === 'number' ? { port: req.socket.localPort } : {}),
          },
          (text) => tokens.redact(text),
        ),
      )
      .catch(() => undefined);
  };
}

/** Bodies as the API takes them: UTF-8 JSON (its first bytes kept for the request log), a form for a token only. */
async function parseBodies(app: FastifyInstance): Promise<void> {
  // Bytes must be UTF-8 and JSON; the first bytes are kept for the request log.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: LARGEST_BODY }, (req, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) return done(new HttpProblem(400, 'invalid-encoding', 'the body is not valid UTF-8'), undefined);
    // From the bytes, not a slice of the text: a slice would keep the whole body alive until it is logged.
    const excerpt = BODY_EXCERPT_CHARS + EXCERPT_MARGIN_CHARS;
    req.bodyExcerpt = bytes
      .subarray(0, excerpt * 4)
      .toString('utf8')
      .slice(0, excerpt);
    // Text that is all ASCII reads the same as Latin-1, which is copied rather than decoded.
    const text = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (e) {
      done(new HttpProblem(400, 'malformed-json', `the body is not valid JSON: ${(e as Error).message}`), undefined);
    }
  });
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  // A form body is how a token is asked for (RFC 6749 §4.4.2); anywhere else it is a body of the wrong type, like
  // every other that is not JSON.
  app.addHook('preValidation', async (req) => {
    const type = String(req.headers['content-type'] ?? '');
    if (/^application\/x-www-form-urlencoded\b/i.test(type) && !req.routeOptions.config?.form)
      throw new HttpProblem(415, 'unsupported-media-type', `send the body as application/json (got ${type})`);
  });
}

/** The OpenAPI document, served at /openapi.json with the address the client reached. */
async function describeApi(app: FastifyInstance): Promise<void> {
  // Shared schemas are named by their $id in the document (the plugin's default numbers them def-0, def-1, …).
  app.addSchema(ProblemSchema);
  await app.register(swagger, {
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Replenishment Workbench — local API',
        version: '1.47.0',
        description:
          'The retail replenishment data-exchange API as the workbench serves it locally: same endpoints, ' +
          'validation, upsert and full-load semantics. Errors are RFC 9457 problem details listing every error. ' +
          'Paths and query names are case-insensitive; /v1/… is an alias.',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'Token from POST /Token, sent with the X-Tenant header it was issued for.',
          },
        },
      },
      tags: [
        { name: 'Session' },
        { name: 'Datasets' },
        { name: 'Master data' },
        { name: 'Recommendations' },
        { name: 'Workbench admin' },
      ],
    },
  });
  app.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async (req) => {
    req.audit.quiet = true;
    // The address the client reached: a tool importing the document (Postman, an OpenAPI generator) gets its base URL.
    return openapiDocument(app, `${req.protocol}://${req.host}`);
  });
}

/** Every error as a problem body: what was refused and why, an internal failure as its request id, never a stack. */
function answerError(error: FastifyError | Error, req: FastifyRequest, reply: FastifyReply, tokens: TokenIssuer) {
  return sendProblem(
    reply,
    refusal(error, req, reply) ?? requestFault(error as FastifyError, req) ?? internalFailure(error, req, tokens),
  );
}

/** A request the workbench refused, with the errors it found (kept in the request log too). */
function refusal(error: Error, req: FastifyRequest, reply: FastifyReply): ProblemBody | undefined {
  if (error instanceof ValidationFailed) {
    req.audit.errors = error.errors;
    req.audit.errorCount = error.errorCount;
    (req.audit.warnings ??= []).push(...error.warnings);
    return problemBody(req, 400, 'validation-failed', error.message, {
      errors: error.errors,
      errorCount: error.errorCount,
      ...(error.countStopped ? { errorCountIsAtLeast: true } : {}),
      ...(error.warnings.length ? { warnings: listedWarnings(error.warnings) } : {}),
    });
  }
  if (error instanceof HttpProblem) {
    reply.headers(error.headers);
    return problemBody(req, error.status, error.slug, error.message, error.extra);
  }
  if (error instanceof RequestRejected) {
    const errors = error.errors;
    if (errors.length) Object.assign(req.audit, { errors, errorCount: errors.length });
    return problemBody(
      req,
      error.status,
      'rejected',
      error.message,
      errors.length ? { errors, errorCount: errors.length } : {},
    );
  }
  if (error instanceof UnknownDatasetError) return problemBody(req, 404, 'unknown-dataset', error.message);
  if (error instanceof SettingsInvalid) {
    const errors = error.problems.map((p) => ({ path: p.path, message: p.message }));
    return problemBody(req, 400, 'invalid-settings', error.message, { errors, errorCount: errors.length });
  }
  return undefined;
}

/** A request the HTTP layer could not take: too large, not JSON, or another client error it found. */
function requestFault(fe: FastifyError, req: FastifyRequest): ProblemBody | undefined {
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const limit = req.routeOptions.bodyLimit ?? 0;
    // Files picked in the app arrive as one call: the advice is about files, not calls.
    const advice = /^\/_workbench\/load\b/i.test(req.url)
      ? `the picked files come to more than the ${Math.floor(limit / 1024 / 1024)} MB one load takes: ` +
        `load fewer at a time, or large files with \`workbench load\``
      : `the body is larger than this endpoint accepts (${limit} bytes); split it over several calls`;
    return problemBody(req, 413, 'body-too-large', advice);
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return problemBody(
      req,
      415,
      'unsupported-media-type',
      `send the body as application/json (got ${req.headers['content-type'] ?? 'no content type'})`,
    );
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500)
    return problemBody(req, fe.statusCode, 'bad-request', fe.message);
  return undefined;
}

/** A failure of the workbench: the operator sees what failed; the client gets the request id, never the stack. */
function internalFailure(error: Error, req: FastifyRequest, tokens: TokenIssuer): ProblemBody {
  req.audit.errors = [{ path: '', message: `internal error: ${error.message}` }];
  console.error(
    tokens.redact(`request ${req.id} ${req.method} ${req.url.split('?')[0]} failed: ${error.stack ?? error.message}`),
  );
  return problemBody(
    req,
    500,
    'internal-error',
    `the workbench failed on this request; quote request id ${req.id} when reporting it`,
  );
}

/** The OpenAPI document of a built server, with the base URL a client reaches it at. */
export function openapiDocument(app: FastifyInstance, url: string): Record<string, unknown> {
  return { ...app.swagger(), servers: [{ url, description: 'This local API' }] };
}
