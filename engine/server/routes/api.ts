/** The service's own API: every endpoint the spec lists, answering as the spec says. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { Type, type TSchema } from '@sinclair/typebox';
import { DATASETS, type DatasetDef } from '../../model/datasets.js';
import { ABANDON_AFTER_MICROS } from '../../ingest/full-load.js';
import { TRANSFERS_DEFAULT_LIMIT, TRANSFERS_MAX_LIMIT } from '../../service/transfers.js';
import type { ServerContext } from '../context.js';
import { HttpProblem } from '../problem.js';
import { optionsBody } from '../body.js';
import { readQuery, type QuerySpec, type RawQuery } from '../query.js';
import {
  envelope,
  errorResponses,
  noContent,
  tenantHeader,
  TokenRequest,
  TOKEN_HEADERS,
  TokenResponse,
  TransfersPage,
  ProductDescriptionsPage,
  ProductTagsPage,
} from '../schemas.js';

const security = [{ bearer: [] }];

function unknownQueryWarnings(req: FastifyRequest, unknown: string[]): void {
  if (!unknown.length) return;
  (req.audit.warnings ??= []).push(
    ...unknown.map((n) => ({ path: `?${n}`, message: `unknown query parameter "${n}" ignored` })),
  );
}

function query<S extends QuerySpec>(req: FastifyRequest, spec: S) {
  const { values, unknown } = readQuery(req.query as RawQuery, spec);
  unknownQueryWarnings(req, unknown);
  return values;
}

function countRecords(req: FastifyRequest, d: DatasetDef): void {
  req.audit.dataset = d.name;
  const list = (req.body as Record<string, unknown> | undefined)?.[d.envelope];
  if (Array.isArray(list)) req.audit.records = list.length;
}

function answered(reply: FastifyReply, req: FastifyRequest): FastifyReply {
  const w = req.audit.warnings?.length ?? 0;
  if (w) reply.header('X-Workbench-Warnings', String(w));
  return reply.code(200).send();
}

type Page = { offset: number; limit: number };

/** Offset and Limit of a paged recommendation list, read as the transfers read them. */
function pageQueryOf(req: FastifyRequest): Page {
  const q = query(req, {
    Offset: { kind: 'integer', min: 0 },
    Limit: { kind: 'integer', min: 1, max: TRANSFERS_MAX_LIMIT },
  });
  return { offset: q.Offset ?? 0, limit: q.Limit ?? TRANSFERS_DEFAULT_LIMIT };
}

const pageQuery = Type.Object({
  Offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'Offset of the first record.' })),
  Limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: TRANSFERS_MAX_LIMIT,
      default: TRANSFERS_DEFAULT_LIMIT,
      description: 'Most records to return.',
    }),
  ),
});

const idleMinutes = ABANDON_AFTER_MICROS / 60_000_000;

/** The full-load rules as docs/design.md §3.12 states them, for a client reading the document. */
const fullLoadRule = (d: DatasetDef) =>
  `true: the records sent are all there are; ${
    d.history ? 'every location/SKU not sent is set to 0' : 'every record not sent is soft-deleted'
  } (a record another call writes while the load is open stays). While a split load of ${d.name} is open, the ` +
  'next fullLoad=true call continues it, even one meant as a load of its own. A refused call (400) leaves it ' +
  "open, so the same call sent again corrected continues it; the refusal's warnings say so. " +
  `DELETE /_workbench/full-loads/${d.name} drops an open load and applies nothing.`;
const moreRecordsRule =
  'With fullLoad=true: true keeps the records aside, validated but not applied, for the calls to come; false (or ' +
  'absent) completes the load, applying every call of it in one transaction. A split load with no call for ' +
  `${idleMinutes} minutes is abandoned and deletes nothing; the call that meets it is refused with 409 (send the ` +
  'load again from its first call).';

type Workbench = ServerContext['wb'];

/** The OpenAPI part of a route's schema; the /v1 copy of the API is registered hidden so the document lists it once. */
function docOf(hidden: boolean) {
  return (tags: string[], summary: string, extra: Record<string, unknown> = {}) => ({
    hide: hidden,
    tags,
    summary,
    ...extra,
  });
}
type Doc = ReturnType<typeof docOf>;

/** POST /Token: the one public route, holding a client secret. */
function tokenRoute(app: FastifyInstance, ctx: ServerContext, doc: Doc): void {
  app.post(
    '/Token',
    {
      schema: doc(['Session'], 'Get a bearer token (OAuth2 client credentials)', {
        headers: tenantHeader,
        body: TokenRequest,
        response: {
          200: { ...TokenResponse, headers: TOKEN_HEADERS },
          400: errorResponses[400],
          401: errorResponses[401],
        },
      }),
      // secret: its body and query hold the client secret, so the log keeps neither.
      config: { public: true, secret: true, form: true },
    },
    async (req, reply) => {
      // An answer holding a token is never cached (RFC 6749 §5.1); a refusal is not either.
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      const tenant = req.headers['x-tenant'];
      return ctx.tokens.issue(typeof tenant === 'string' ? tenant : undefined, req.body);
    },
  );
}

/** POST /Batch/start and /Batch/stop; stopping a batch runs the recommendations. */
function batchRoutes(app: FastifyInstance, ctx: ServerContext, doc: Doc): void {
  const { wb } = ctx;
  const batches = new Set<string>();
  app.post(
    '/Batch/start',
    { schema: doc(['Session'], 'Start a batch of uploads', { security, headers: tenantHeader }) },
    async () => {
      const batchId = randomUUID();
      batches.add(batchId);
      return { batchId };
    },
  );
  app.post(
    '/Batch/stop',
    {
      schema: doc(['Session'], 'Close a batch and run the recommendations', { security, headers: tenantHeader }),
    },
    async (req) => {
      const { batchId } = optionsBody(req.body, '{batchId?}');
      if (batchId !== undefined && typeof batchId !== 'string')
        throw new HttpProblem(400, 'invalid-body', 'batchId must be the string POST /Batch/start answered');
      if (typeof batchId === 'string') batches.delete(batchId);
      const run = await wb.runRecommendations({ autoApprove: ctx.autoApprove });
      return { batchId: typeof batchId === 'string' ? batchId : null, run };
    },
  );
}

/** POST /{dataset}: an upsert, with the full-load flags where the dataset takes full loads. */
function upsertRoute(app: FastifyInstance, wb: Workbench, doc: Doc, d: DatasetDef): void {
  const spec: QuerySpec = d.fullLoad
    ? { fullLoad: { kind: 'boolean' }, moreRecordsAvailable: { kind: 'boolean' } }
    : {};
  const querystring = d.fullLoad
    ? Type.Object({
        fullLoad: Type.Optional(Type.Boolean({ description: fullLoadRule(d) })),
        moreRecordsAvailable: Type.Optional(Type.Boolean({ description: moreRecordsRule })),
      })
    : undefined;
  app.post(
    `/${d.name}`,
    {
      bodyLimit: d.bodyLimit,
      schema: doc([d.masterData ? 'Master data' : 'Datasets'], `Upsert ${d.name}`, {
        security,
        headers: tenantHeader,
        body: envelope(d, 'upsert'),
        ...(querystring ? { querystring } : {}),
        response: { 200: noContent, ...errorResponses },
      }),
    },
    async (req, reply) => {
      countRecords(req, d);
      const q = query(req, spec) as { fullLoad?: boolean; moreRecordsAvailable?: boolean };
      const result = await wb.ingest(d.name, req.body, q);
      (req.audit.warnings ??= []).push(...result.warnings);
      return answered(reply, req);
    },
  );
}

/** DELETE /{dataset}: a soft delete of the records sent. */
function deleteRoute(app: FastifyInstance, wb: Workbench, doc: Doc, d: DatasetDef): void {
  app.delete(
    `/${d.name}`,
    {
      bodyLimit: d.bodyLimit,
      schema: doc([d.masterData ? 'Master data' : 'Datasets'], `Soft-delete ${d.name}`, {
        security,
        headers: tenantHeader,
        body: envelope(d, 'delete'),
        response: { 200: noContent, ...errorResponses },
      }),
    },
    async (req, reply) => {
      countRecords(req, d);
      query(req, {});
      const result = await wb.remove(d.name, req.body);
      (req.audit.warnings ??= []).push(...result.warnings);
      return answered(reply, req);
    },
  );
}

/** Every dataset's routes, each dataset's upsert then (if it has one) its delete, in the datasets' order. */
function datasetRoutes(app: FastifyInstance, wb: Workbench, doc: Doc): void {
  for (const d of DATASETS) {
    upsertRoute(app, wb, doc, d);
    if (d.deletable) deleteRoute(app, wb, doc, d);
  }
}

/** A recommendation list's schema: read with a token, for the tenant, by its query; `page` its answer, where listed. */
function listSchema(doc: Doc, summary: string, querystring: TSchema, page?: TSchema) {
  return doc(['Recommendations'], summary, {
    security,
    headers: tenantHeader,
    querystring,
    ...(page
      ? { response: { 200: page, 400: errorResponses[400], 401: errorResponses[401], 500: errorResponses[500] } }
      : {}),
  });
}

/** GET /Recommendations/transfers: paged like the others, and also filtered by confirmation time. */
function transfersRoute(app: FastifyInstance, wb: Workbench, doc: Doc): void {
  app.get(
    '/Recommendations/transfers',
    {
      schema: listSchema(
        doc,
        'Approved transfers, oldest confirmation first',
        Type.Object({
          ...pageQuery.properties,
          FromConfirmedDateTime: Type.Optional(
            Type.String({ format: 'date-time', description: 'Only transfers confirmed at or after this UTC time.' }),
          ),
        }),
        TransfersPage,
      ),
    },
    async (req) => {
      const q = query(req, {
        Offset: { kind: 'integer', min: 0 },
        Limit: { kind: 'integer', min: 1, max: TRANSFERS_MAX_LIMIT },
        FromConfirmedDateTime: { kind: 'datetime' },
      });
      return wb.transfers({
        offset: q.Offset ?? 0,
        limit: q.Limit ?? TRANSFERS_DEFAULT_LIMIT,
        fromConfirmedDateTime: q.FromConfirmedDateTime,
      });
    },
  );
}

/** The recommendation lists read by Offset and Limit alone: stock targets, product descriptions and their tags. */
function pagedRecommendationRoutes(app: FastifyInstance, wb: Workbench, doc: Doc): void {
  app.get(
    '/Recommendations/stockTargets',
    {
      schema: listSchema(doc, 'Stock targets per location and SKU', pageQuery),
    },
    async (req) => wb.stockTargets(pageQueryOf(req)),
  );

  for (const [path, summary, response, answer] of [
    [
      '/Recommendations/productDescriptions',
      'Product descriptions, one per style, made from the items, styles and master data sent',
      ProductDescriptionsPage,
      (page: Page) => wb.productDescriptions(page),
    ],
    [
      '/Recommendations/productDescriptions/tags',
      'The tags of those descriptions, each with how many styles carry it',
      ProductTagsPage,
      (page: Page) => wb.productTags(page),
    ],
  ] as const) {
    app.get(
      path,
      {
        schema: listSchema(doc, summary, pageQuery, response),
      },
      async (req) => answer(pageQueryOf(req)),
    );
  }
}

/** The API's routes; their order here is the order the OpenAPI document lists them in. */
export function apiRoutes(ctx: ServerContext, hidden: boolean) {
  return async (app: FastifyInstance) => {
    const doc = docOf(hidden);
    tokenRoute(app, ctx, doc);
    batchRoutes(app, ctx, doc);
    datasetRoutes(app, ctx.wb, doc);
    transfersRoute(app, ctx.wb, doc);
    pagedRecommendationRoutes(app, ctx.wb, doc);
  };
}
