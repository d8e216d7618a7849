/** The `/_workbench/` admin API (docs/design.md §2): what the workbench tells beyond the service's own API. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DATASETS, type DatasetDef } from '../../model/datasets.js';

/** A picked file is one endpoint's body: no larger than the largest any endpoint takes. */
const LARGEST_FILE = Math.max(...DATASETS.map((d) => d.bodyLimit));
import type { ServerContext } from '../context.js';
import { HttpProblem } from '../problem.js';
import { optionsBody } from '../body.js';
import { ARROW_STREAM, PROPOSAL_COLUMNS, rowsToArrow, TOTAL_COUNT_HEADER, wantsArrow } from '../arrow.js';
import { readQuery, type RawQuery } from '../query.js';
import { parseDay } from '../../model/datetime.js';
import { DEFAULT_SCENARIO, DEFAULT_SETTINGS } from '../../recommend/settings.js';
import { parseSettingsOverride, SettingsOverrideSchema } from '../../recommend/settings-schema.js';
import {
  LoadRequestSchema,
  parseLoadRequest,
  parsePreviewRequest,
  PreviewRequestSchema,
} from '../../service/load-request.js';

/** `data/Images/urls/ST1/https%3A…` → the dataset whose name the leading segments spell, and the key segments. */
function datasetPath(req: FastifyRequest): { dataset: DatasetDef; key: string[] } {
  const path = req.url.split('?')[0];
  const at = path.toLowerCase().indexOf('/data/');
  const segments = path
    .slice(at + '/data/'.length)
    .split('/')
    .filter((s) => s !== '');
  let best: { dataset: DatasetDef; used: number } | undefined;
  for (const d of DATASETS) {
    const parts = d.name.toLowerCase().split('/');
    if (parts.every((p, i) => segments[i]?.toLowerCase() === p) && (!best || parts.length > best.used))
      best = { dataset: d, used: parts.length };
  }
  if (!best)
    throw new HttpProblem(
      404,
      'unknown-dataset',
      `no dataset "${segments[0] ?? ''}"; known: ${DATASETS.map((d) => d.name).join(', ')}`,
    );
  let key: string[];
  try {
    key = segments.slice(best.used).map((s) => decodeURIComponent(s));
  } catch {
    throw new HttpProblem(400, 'invalid-path', 'the record key in the path is not valid percent-encoding');
  }
  return { dataset: best.dataset, key };
}

export function adminRoutes(ctx: ServerContext) {
  return async (app: FastifyInstance) => {
    const { wb } = ctx;
    const doc = (summary: string) => ({ tags: ['Workbench admin'], summary, security: [{ bearer: [] }] });

    app.get('/data/*', { schema: doc('A stored record by key, or a page of a dataset') }, async (req) => {
      const { dataset, key } = datasetPath(req);
      if (key.length === 0) {
        const q = readQuery(req.query as RawQuery, {
          offset: { kind: 'integer', min: 0 },
          limit: { kind: 'integer', min: 1, max: 10_000 },
        }).values;
        return wb.list(dataset.name, { offset: q.offset ?? 0, limit: q.limit ?? 100 });
      }
      if (dataset.history && key.length === 2) {
        const stock = await wb.stock(key[0], key[1]);
        if (!stock) throw new HttpProblem(404, 'not-found', `no stock for location "${key[0]}" and SKU "${key[1]}"`);
        return stock;
      }
      if (key.length !== dataset.key.length) {
        throw new HttpProblem(
          400,
          'invalid-path',
          `${dataset.name} records are addressed as data/${dataset.name}/${dataset.key.map((k) => `{${k}}`).join('/')}`,
        );
      }
      const record = await wb.read(dataset.name, key);
      if (!record)
        throw new HttpProblem(404, 'not-found', `${dataset.name} "${key.join('/')}" does not exist or was deleted`);
      return record;
    });

    app.get('/summary', { schema: doc('Counts, date ranges and last writes per dataset') }, async () => wb.summary());

    app.get(
      '/integration',
      { schema: doc('How a client reaches this API: address, tenant, client id and secret') },
      async (req) => {
        req.audit.secret = true;
        return ctx.integration();
      },
    );

    app.post(
      '/recommendations/run',
      {
        schema: doc('Run the recommendations now (synchronous); body: {asOf?, settings?, autoApprove?, description?}'),
      },
      async (req) => {
        const body = optionsBody(req.body, '{asOf?, settings?, scenario?, autoApprove?, description?}');
        for (const [field, type] of [
          ['autoApprove', 'boolean'],
          ['description', 'string'],
          ['scenario', 'string'],
        ] as const) {
          if (body[field] !== undefined && typeof body[field] !== type)
            throw new HttpProblem(400, 'invalid-body', `${field} must be a ${type}`);
        }
        let asOfDay: number | undefined;
        if (body.asOf !== undefined) {
          asOfDay = typeof body.asOf === 'string' ? parseDay(body.asOf) : undefined;
          if (asOfDay === undefined) throw new HttpProblem(400, 'invalid-body', 'asOf must be a date YYYY-MM-DD');
        }
        return wb.runRecommendations({
          autoApprove: body.autoApprove === undefined ? ctx.autoApprove : body.autoApprove === true,
          description: typeof body.description === 'string' ? body.description : undefined,
          asOfDay,
          scenario: body.settings === undefined ? undefined : parseSettingsOverride(body.settings),
          scenarioName: typeof body.scenario === 'string' ? body.scenario : undefined,
        });
      },
    );

    app.post(
      '/load',
      {
        schema: doc(
          'Load one file as a user picked it: ?file=NAME, the body is the file; ' +
            "its endpoint is told by the name, else by the body's one array",
        ),
        bodyLimit: LARGEST_FILE,
      },
      async (req) => {
        const q = readQuery(req.query as RawQuery, { file: { kind: 'string' } }).values;
        if (!q.file) throw new HttpProblem(400, 'invalid-query', 'name the file: ?file=Sales-0001.json');
        return wb.ingestFile(q.file, req.body);
      },
    );

    // Picked files as names and text (JSON and CSV alike), the way the desktop bridge carries them.
    const filesRoute = (summary: string, body: unknown) => ({
      schema: { ...doc(summary), body },
      bodyLimit: LARGEST_FILE,
    });
    app.post(
      '/load/preview',
      filesRoute(
        "What picked CSV files will load as: each one's level, its columns' fields and its first rows converted",
        PreviewRequestSchema,
      ),
      async (req) => {
        const { files, options } = parsePreviewRequest(req.body);
        return wb.previewCsv(files, options);
      },
    );
    app.post(
      '/load/files',
      filesRoute(
        'Load picked JSON and CSV files as `workbench load` does (synchronous): ' +
          "each dataset's batch whole or not at all",
        LoadRequestSchema,
      ),
      async (req) => {
        const { files, options } = parseLoadRequest(req.body);
        return wb.loadFiles(files, options);
      },
    );
    app.post(
      '/load/jobs',
      filesRoute('Start loading picked files in the background; poll the job it answers with', LoadRequestSchema),
      async (req) => {
        const { files, options } = parseLoadRequest(req.body);
        return wb.startLoad(files, options);
      },
    );
    app.get<{ Params: { jobId: string } }>(
      '/load/jobs/:jobId',
      { schema: doc("A background load: files done, records and rate, and every batch's outcome once it ends") },
      async (req) => wb.loadJob(req.params.jobId),
    );

    app.get(
      '/scenarios',
      {
        schema: doc(
          'The scenarios kept in the workspace, the one runs use when none is named, the engine defaults, ' +
            "the settings' JSON Schema, and the merchandise categories with the settings the data gives them",
        ),
      },
      async () => ({
        scenarios: await wb.scenarios(),
        defaultScenario: DEFAULT_SCENARIO,
        defaults: DEFAULT_SETTINGS,
        schema: SettingsOverrideSchema,
        ...(await wb.categoryContext()),
      }),
    );
    app.get<{ Params: { name: string } }>(
      '/scenarios/:name',
      { schema: doc("One scenario's settings") },
      async (req) => ({
        scenario: await wb.scenario(req.params.name),
      }),
    );
    app.put<{ Params: { name: string } }>(
      '/scenarios/:name',
      { schema: doc("Replace a scenario's settings (validated)") },
      async (req) => ({
        scenario: await wb.setScenario(req.body === undefined ? {} : req.body, req.params.name),
      }),
    );

    app.get<{ Params: { locationId: string; skuId: string } }>(
      '/demand/:locationId/:skuId',
      { schema: doc('The demand estimate and target of one location/SKU, with its parts') },
      async (req) => {
        const { locationId, skuId } = req.params;
        const d = await wb.explainDemand(locationId, skuId);
        if (!d)
          throw new HttpProblem(404, 'not-found', `no location "${locationId}" or SKU "${skuId}" in the engine's view`);
        return d;
      },
    );

    app.post('/transfers/approve', { schema: doc('Approve open proposals as one batch') }, async (req) =>
      wb.approveTransfers(optionsBody(req.body, '{referenceIds?, description?, plannedDispatchDate?}')),
    );

    app.get(
      '/transfers',
      {
        schema: doc(
          'Open proposals and approved transfers, with their reasons; as an Arrow IPC stream with ' +
            `Accept: ${ARROW_STREAM} (the total in ${TOTAL_COUNT_HEADER})`,
        ),
      },
      async (req, reply) => {
        const q = readQuery(req.query as RawQuery, {
          offset: { kind: 'integer', min: 0 },
          limit: { kind: 'integer', min: 1, max: 10_000 },
          approved: { kind: 'boolean' },
        }).values;
        const page = await wb.proposals({ offset: q.offset ?? 0, limit: q.limit ?? 100, approved: q.approved });
        if (!wantsArrow(req)) return page;
        // The page's rows as columns; how many there are in all rides in a header.
        return reply
          .type(ARROW_STREAM)
          .header(TOTAL_COUNT_HEADER, String(page.total))
          .send(Buffer.from(rowsToArrow(page.proposals, PROPOSAL_COLUMNS)));
      },
    );

    app.post(
      '/backtests',
      { schema: doc('Replay a period with the engine (synchronous); body: {from, to, scenario?}') },
      async (req) => {
        const { fromDay, toDay, scenario } = backtestPeriod(req.body);
        const { run, report } = await wb.runBacktest({ fromDay, toDay, scenarioName: scenario });
        return { run, summary: report.summary, daily: report.daily };
      },
    );
    app.post(
      '/backtests/jobs',
      { schema: doc('Start a backtest in the background; body: {from, to, scenario?}; poll the job it answers with') },
      async (req) => {
        const { fromDay, toDay, scenario } = backtestPeriod(req.body);
        return wb.startBacktest({ fromDay, toDay, scenarioName: scenario });
      },
    );
    app.get<{ Params: { jobId: string } }>(
      '/backtests/jobs/:jobId',
      { schema: doc('A background backtest: status, days done of days, and its run once it ends') },
      async (req) => wb.backtestJob(req.params.jobId),
    );
    app.post<{ Params: { jobId: string } }>(
      '/backtests/jobs/:jobId/cancel',
      {
        schema: doc('Stop a background backtest after its current day; the days replayed are kept as a cancelled run'),
      },
      async (req) => wb.cancelBacktest(req.params.jobId),
    );
    app.get('/backtests', { schema: doc('The backtest runs kept in the workspace') }, async () => ({
      runs: await wb.backtests(),
    }));
    app.get<{ Params: { runId: string } }>(
      '/backtests/:runId',
      { schema: doc('One backtest run: settings, summary and daily series') },
      async (req) => {
        const report = await wb.backtest(req.params.runId);
        if (!report) throw new HttpProblem(404, 'not-found', 'no such backtest run');
        return report;
      },
    );

    app.get<{ Params: { runId: string; level: 'location' | 'style' } }>(
      '/backtests/:runId/groups/:level',
      { schema: doc("A run's KPIs by location or by style, simulated and actual") },
      async (req) => {
        const { runId, level } = req.params;
        return { groups: await wb.backtestGroups(runId, level) };
      },
    );

    app.get<{ Params: { runId: string; styleId: string } }>(
      '/backtests/:runId/styles/:styleId/days',
      {
        schema: doc(
          'One style of a run, day by day: stock, sales, lost sales, stock-outs, receipts ' +
            "and the engine's transfers and demand estimate, simulated and actual",
        ),
      },
      async (req) => {
        const { runId, styleId } = req.params;
        return wb.backtestStyleDays(runId, styleId);
      },
    );
    app.get<{ Params: { runId: string; styleId: string } }>(
      '/backtests/:runId/styles/:styleId/cells',
      {
        schema: doc(
          "A style's location×SKUs over a run, most simulated lost sales first " +
            '(the run is replayed to trace them; 409 when the workspace no longer reproduces it)',
        ),
      },
      async (req) => {
        const { runId, styleId } = req.params;
        return wb.backtestStyleCells(runId, styleId);
      },
    );
    app.get<{ Params: { runId: string; styleId: string } }>(
      '/backtests/:runId/styles/:styleId/trace',
      {
        schema: doc(
          "How far tracing a style's location×SKUs has got: none, reading, replaying (days done of days) or ready",
        ),
      },
      async (req) => {
        const { runId, styleId } = req.params;
        return wb.backtestTraceProgress(runId, styleId);
      },
    );
    app.get<{ Params: { runId: string; styleId: string; locationId: string; skuId: string } }>(
      '/backtests/:runId/styles/:styleId/cells/:locationId/:skuId',
      { schema: doc("One location×SKU of a run, day by day, with the engine's transfers and their reasons") },
      async (req) => {
        const { runId, styleId, locationId, skuId } = req.params;
        return wb.backtestCellDays(runId, styleId, locationId, skuId);
      },
    );

    app.get<{ Params: { a: string; b: string } }>(
      '/backtests/:a/compare/:b',
      { schema: doc("Two runs side by side: each one's KPIs and daily series, b − a, and a's actual") },
      async (req) => {
        const { a, b } = req.params;
        return wb.compareBacktests(a, b);
      },
    );

    app.get('/log', { schema: doc('The request log, oldest first') }, async (req) => {
      req.audit.quiet = true;
      const q = readQuery(req.query as RawQuery, {
        afterId: { kind: 'integer', min: 0 },
        limit: { kind: 'integer', min: 1, max: 10_000 },
      }).values;
      return { entries: await wb.requestLog({ afterId: q.afterId, limit: q.limit }) };
    });

    app.get(
      '/lint',
      { schema: doc("The feed lint: the spec's pitfalls found in the stored data and recent requests") },
      async () => wb.lint(),
    );

    app.delete(
      '/state',
      { schema: doc('Reset the workspace: every dataset, run and transfer') },
      async (_req, reply) => {
        await wb.reset();
        return reply.code(200).send();
      },
    );
  };
}

/** A backtest request's body: the period as days, and the scenario's name. */
function backtestPeriod(raw: unknown): { fromDay: number; toDay: number; scenario?: string } {
  const body = (raw ?? {}) as { from?: unknown; to?: unknown; scenario?: unknown };
  const fromDay = typeof body.from === 'string' ? parseDay(body.from) : undefined;
  const toDay = typeof body.to === 'string' ? parseDay(body.to) : undefined;
  if (fromDay === undefined || toDay === undefined)
    throw new HttpProblem(400, 'invalid-body', 'from and to must be dates YYYY-MM-DD');
  return { fromDay, toDay, scenario: typeof body.scenario === 'string' ? body.scenario : undefined };
}
