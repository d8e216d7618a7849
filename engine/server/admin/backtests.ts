/** Admin routes on backtests: replay a period (now or in the background), and read kept runs down to one cell. */
import { Type } from '@sinclair/typebox';
import type { BacktestJob } from '../../service/backtest-jobs.js';
import { RUN_LABEL_MAX, RUN_NOTE_MAX, type BacktestRun, type KeptRun } from '../../service/backtests.js';
import type { SimulationResult } from '../../simulate/simulate.js';
import type { ServerContext } from '../context.js';
import { ARROW_STREAM } from '../arrow.js';
import { HttpProblem } from '../problem.js';
import { answer, routeFor } from './route.js';
import { DayText, dayOf, Id, type ServiceAnswer } from './schemas.js';

const route = routeFor<ServerContext>();

/** What a backtest run answers with: its run record, summary (simulated vs actual) and daily series. */
export interface BacktestResult {
  run: BacktestRun;
  summary: SimulationResult['summary'];
  daily: SimulationResult['daily'];
}

const Period = Type.Object(
  {
    from: DayText('The first day replayed'),
    to: DayText('The last day replayed'),
    scenario: Type.Optional(Type.String({ description: 'A kept scenario (default: the default scenario).' })),
  },
  { additionalProperties: false },
);
const period = (body: { from: string; to: string; scenario?: string }) => ({
  fromDay: dayOf(body.from),
  toDay: dayOf(body.to),
  scenarioName: body.scenario,
});

const JobAnswer = answer<BacktestJob>('BacktestJob', 'A background backtest: status, days done of days, its run.');
const Job = Type.Object({ jobId: Id('The job, as starting it answered.') });
const Run = Type.Object({ runId: Id('A kept run.') });
const RunStyle = Type.Object({ runId: Id('A kept run.'), styleId: Id('A style of its data.') });

export const backtestRoutes = {
  'POST /backtests': route({
    summary: 'Replay a period with the engine (synchronous)',
    body: Period,
    response: answer<BacktestResult>('BacktestResult', 'The run, its summary and its daily series.'),
    handle: async ({ body }, { wb }) => {
      const { run, report } = await wb.runBacktest(period(body));
      return { run, summary: report.summary, daily: report.daily };
    },
  }),

  'POST /backtests/jobs': route({
    summary: 'Start a backtest in the background; poll the job it answers with',
    body: Period,
    response: JobAnswer,
    handle: async ({ body }, { wb }) => wb.startBacktest(period(body)),
  }),

  'GET /backtests/jobs/:jobId': route({
    summary: 'A background backtest: status, days done of days, and its run once it ends',
    params: Job,
    response: JobAnswer,
    handle: async ({ params }, { wb }) => wb.backtestJob(params.jobId),
  }),

  'POST /backtests/jobs/:jobId/cancel': route({
    summary: 'Stop a background backtest after its current day; the days replayed are kept as a cancelled run',
    params: Job,
    response: JobAnswer,
    handle: async ({ params }, { wb }) => wb.cancelBacktest(params.jobId),
  }),

  'GET /backtests': route({
    summary: 'The backtest runs kept in the workspace, newest first',
    response: answer<{ runs: KeptRun[] }>('BacktestRuns', '{runs}: each with its period, scenario and KPIs.'),
    handle: async (_, { wb }) => ({ runs: await wb.backtests() }),
  }),

  'GET /backtests/:runId': route({
    summary: 'One backtest run: settings, summary and daily series',
    params: Run,
    response: answer<NonNullable<ServiceAnswer<'backtest'>>>('BacktestReport', 'The run as kept.'),
    handle: async ({ params }, { wb }) => {
      const report = await wb.backtest(params.runId);
      if (!report) throw new HttpProblem(404, 'not-found', `no backtest run "${params.runId}"`);
      return report;
    },
  }),

  'PUT /backtests/:runId/label': route({
    summary: 'Give a kept run a label and a note (an empty text clears one; one left out stays as it is)',
    params: Run,
    body: Type.Object(
      {
        label: Type.Optional(
          Type.String({ maxLength: RUN_LABEL_MAX, description: 'What the run is called where it is listed.' }),
        ),
        note: Type.Optional(Type.String({ maxLength: RUN_NOTE_MAX, description: 'What its user wrote about it.' })),
      },
      { additionalProperties: false },
    ),
    response: answer<BacktestRun>('BacktestRunLabelled', 'The run with its label and note.'),
    handle: async ({ params, body }, { wb }) => {
      const run = await wb.labelBacktest(params.runId, body);
      if (!run) throw new HttpProblem(404, 'not-found', `no backtest run "${params.runId}"`);
      return run;
    },
  }),

  'DELETE /backtests/:runId': route({
    summary: 'Delete a kept run with its days, breakdowns and transfers',
    params: Run,
    response: answer<{ deleted: string }>('BacktestDeleted', '{deleted}: the run deleted.'),
    handle: async ({ params }, { wb }) => {
      if (!(await wb.deleteBacktest(params.runId)))
        throw new HttpProblem(404, 'not-found', `no backtest run "${params.runId}"`);
      return { deleted: params.runId };
    },
  }),

  'GET /backtests/:runId/groups/:level': route({
    summary: "A run's KPIs by location or by style, simulated and actual",
    params: Type.Object({
      runId: Id('A kept run.'),
      level: Type.Union([Type.Literal('location'), Type.Literal('style')]),
    }),
    arrow: { rows: 'groups' },
    response: answer<{ groups: ServiceAnswer<'backtestGroups'> }>(
      'BacktestGroups',
      `{groups}: KPIs per group; as an Arrow IPC stream with Accept: ${ARROW_STREAM}, a column per KPI and side`,
    ),
    handle: async ({ params }, { wb }) => ({ groups: await wb.backtestGroups(params.runId, params.level) }),
  }),

  'GET /backtests/:runId/styles/:styleId/days': route({
    summary:
      'One style of a run, day by day: stock, sales, lost sales, stock-outs, receipts ' +
      "and the engine's transfers and demand estimate, simulated and actual",
    params: RunStyle,
    response: answer<ServiceAnswer<'backtestStyleDays'>>('StyleDaySeries', 'Daily series of the style.'),
    handle: async ({ params }, { wb }) => wb.backtestStyleDays(params.runId, params.styleId),
  }),

  'GET /backtests/:runId/styles/:styleId/cells': route({
    summary:
      "A style's location×SKUs over a run, most simulated lost sales first " +
      '(the run is replayed to trace them; 409 when the workspace no longer reproduces it)',
    params: RunStyle,
    response: answer<ServiceAnswer<'backtestStyleCells'>>('StyleCells', 'Totals per location×SKU of the style.'),
    handle: async ({ params }, { wb }) => wb.backtestStyleCells(params.runId, params.styleId),
  }),

  'GET /backtests/:runId/styles/:styleId/trace': route({
    summary: "How far tracing a style's location×SKUs has got: none, reading, replaying (days done of days) or ready",
    params: RunStyle,
    response: answer<ServiceAnswer<'backtestTraceProgress'>>('TraceProgress', 'The trace state.'),
    handle: async ({ params }, { wb }) => wb.backtestTraceProgress(params.runId, params.styleId),
  }),

  'GET /backtests/:runId/styles/:styleId/cells/:locationId/:skuId': route({
    summary: "One location×SKU of a run, day by day, with the engine's transfers and their reasons",
    params: Type.Object({
      runId: Id('A kept run.'),
      styleId: Id('A style of its data.'),
      locationId: Id('A location.'),
      skuId: Id('A SKU of the style.'),
    }),
    response: answer<ServiceAnswer<'backtestCellDays'>>('CellDays', 'Daily series of the cell, with transfers.'),
    handle: async ({ params: p }, { wb }) => wb.backtestCellDays(p.runId, p.styleId, p.locationId, p.skuId),
  }),

  'GET /backtests/:a/compare/:b': route({
    summary:
      "Two runs side by side: each one's KPIs and daily series, b − a, a's actual and the styles that moved most",
    params: Type.Object({ a: Id('The run compared against.'), b: Id('The run compared.') }),
    response: answer<ServiceAnswer<'compareBacktests'>>(
      'BacktestComparison',
      'KPIs, daily series and b − a; the settings that differ; the styles whose lost sales moved most.',
    ),
    handle: async ({ params }, { wb }) => wb.compareBacktests(params.a, params.b),
  }),
};
