/** Admin routes on sweeps: start one in the background, watch and cancel it, read, list and delete kept ones. */
import { Type } from '@sinclair/typebox';
import type { BacktestJob } from '../../service/backtest-jobs.js';
import { MAX_SWEEP_POINTS, SWEEPABLE, type Sweepable } from '../../service/sweep-grid.js';
import type { SweepHeader, SweepReport } from '../../service/sweeps.js';
import type { SettingsOverride } from '../../recommend/settings.js';
import { recommendedPoint, type FrontierConstraint } from '../../service/sweep-frontier.js';
import type { ServerContext } from '../context.js';
import { HttpProblem } from '../problem.js';
import { answer, routeFor } from './route.js';
import { DayText, dayOf, Id } from './schemas.js';

const route = routeFor<ServerContext>();

const SweepRequest = Type.Object(
  {
    from: DayText('The first day replayed'),
    to: DayText('The last day replayed'),
    scenario: Type.Optional(Type.String({ description: 'The kept scenario every point starts from.' })),
    vary: Type.Array(
      Type.Object(
        {
          setting: Type.String({ description: 'A sweepable setting: its path, or a category setting by name.' }),
          values: Type.Array(Type.Number(), { minItems: 1 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, description: `The grid: every combination of the values, ${MAX_SWEEP_POINTS} points at most.` },
    ),
  },
  { additionalProperties: false },
);

const JobAnswer = answer<BacktestJob>('SweepJob', 'A background sweep: status, days done of days over every point.');
const Job = Type.Object({ jobId: Id('The job, as starting it answered.') });
const Sweep = Type.Object({ sweepId: Id('A kept sweep.') });

const startSweep = route({
  summary: 'Start a sweep in the background (a bad grid is refused with the setting named); poll its job',
  body: SweepRequest,
  response: JobAnswer,
  handle: async ({ body }, { wb }) =>
    wb.startSweep({
      fromDay: dayOf(body.from),
      toDay: dayOf(body.to),
      scenarioName: body.scenario,
      axes: body.vary,
    }),
});

export const sweepRoutes = {
  'GET /sweeps/settings': route({
    summary: 'The settings a sweep can vary, with their bounds',
    response: answer<{ settings: readonly Sweepable[]; maxPoints: number }>(
      'SweepableSettings',
      '{settings, maxPoints}: each setting by path, its description and bounds; the most points a grid may have.',
    ),
    handle: async () => ({ settings: SWEEPABLE, maxPoints: MAX_SWEEP_POINTS }),
  }),

  'POST /sweeps': route({ ...startSweep, summary: `${startSweep.summary} (answered 202)`, status: 202 }),

  // The same start as POST /sweeps, answered 200: kept for the clients written against it.
  'POST /sweeps/jobs': startSweep,

  'GET /sweeps/jobs/:jobId': route({
    summary: 'A background sweep: status, days done of days over every point, and its sweep once it ends',
    params: Job,
    response: JobAnswer,
    handle: async ({ params }, { wb }) => wb.backtestJob(params.jobId),
  }),

  'POST /sweeps/jobs/:jobId/cancel': route({
    summary: 'Stop a background sweep; the points it finished are kept',
    params: Job,
    response: JobAnswer,
    handle: async ({ params }, { wb }) => wb.cancelBacktest(params.jobId),
  }),

  'GET /sweeps': route({
    summary: 'The sweeps kept in the workspace, newest first',
    response: answer<{ sweeps: SweepHeader[] }>('Sweeps', '{sweeps}: each with its period, grid and status.'),
    handle: async (_, { wb }) => ({ sweeps: await wb.listSweeps() }),
  }),

  'GET /sweeps/:sweepId': route({
    summary: "One sweep: its points' settings and figures, the frontier marked, and the actual point",
    params: Sweep,
    response: answer<SweepReport>('SweepReport', 'The sweep as kept.'),
    handle: async ({ params }, { wb }) => wb.getSweep(params.sweepId),
  }),

  'GET /sweeps/:sweepId/pick': route({
    summary:
      'The point a constraint picks: the least store stock with a fill rate at least fillRateAtLeast, ' +
      'or the least lost sales with store stock at most inventoryAtMost (a number, or "actual")',
    params: Sweep,
    query: Type.Object({
      fillRateAtLeast: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
      inventoryAtMost: Type.Optional(
        Type.String({
          pattern: '^(actual|[0-9]+(\\.[0-9]+)?)$',
          description: 'Average store stock in units, or "actual": no more than the history held.',
        }),
      ),
    }),
    response: answer<{ point?: number }>('SweepPick', '{point}: the point picked; none when no point meets it.'),
    handle: async ({ params, query }, { wb }) => {
      const constraint: FrontierConstraint | undefined =
        query.fillRateAtLeast !== undefined
          ? { fillRateAtLeast: query.fillRateAtLeast }
          : query.inventoryAtMost !== undefined
            ? { inventoryAtMost: query.inventoryAtMost === 'actual' ? 'actual' : Number(query.inventoryAtMost) }
            : undefined;
      if (!constraint || (query.fillRateAtLeast !== undefined && query.inventoryAtMost !== undefined))
        throw new HttpProblem(400, 'invalid-query', 'give one of fillRateAtLeast and inventoryAtMost');
      const sweep = await wb.getSweep(params.sweepId);
      const at = recommendedPoint(sweep.runs, constraint, sweep.actual);
      return at === undefined ? {} : { point: sweep.runs[at].point };
    },
  }),

  'POST /sweeps/:sweepId/points/:point/scenario': route({
    summary: "Keep a point as a new scenario: the sweep's starting scenario with the point's values",
    params: Type.Object({
      sweepId: Id('A kept sweep.'),
      point: Type.Integer({ minimum: 1, description: 'The point, as the sweep numbers them.' }),
    }),
    body: Type.Object(
      { name: Type.String({ description: 'The new scenario; a name already kept is refused.' }) },
      { additionalProperties: false },
    ),
    response: answer<{ scenario: SettingsOverride }>('SweepPointScenario', '{scenario}: the settings kept.'),
    handle: async ({ params, body }, { wb }) => ({
      scenario: await wb.saveSweepPoint(params.sweepId, params.point, body.name),
    }),
  }),

  'DELETE /sweeps/:sweepId': route({
    summary: 'Delete a kept sweep with its runs',
    params: Sweep,
    response: answer<{ deleted: string }>('SweepDeleted', '{deleted}: the sweep deleted.'),
    handle: async ({ params }, { wb }) => {
      await wb.deleteSweep(params.sweepId);
      return { deleted: params.sweepId };
    },
  }),
};
