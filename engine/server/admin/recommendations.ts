/** Admin routes on the engine's recommendations: a run now, and one cell's demand estimate with its parts. */
import { Type } from '@sinclair/typebox';
import { parseSettingsOverride, SettingsOverrideSchema } from '../../recommend/settings-schema.js';
import type { Workbench } from '../../service/workbench.js';
import type { RunSummary } from '../../service/transfers.js';
import type { ServerContext } from '../context.js';
import { HttpProblem } from '../problem.js';
import { answer, routeFor } from './route.js';
import { DayText, dayOf, Id } from './schemas.js';

const route = routeFor<ServerContext>();

type DemandExplanation = NonNullable<Awaited<ReturnType<Workbench['explainDemand']>>>;

export const recommendationRoutes = {
  'POST /recommendations/run': route({
    summary: 'Run the recommendations now (synchronous)',
    body: Type.Object(
      {
        asOf: Type.Optional(DayText('The day the run sees as today (default: the newest data)')),
        settings: Type.Optional(SettingsOverrideSchema),
        scenario: Type.Optional(Type.String({ description: 'A kept scenario whose settings the run uses.' })),
        autoApprove: Type.Optional(Type.Boolean({ description: 'Approve the proposals at once.' })),
        description: Type.Optional(Type.String({ description: "The auto-approval's description." })),
      },
      { additionalProperties: false },
    ),
    bodyOptional: true,
    response: answer<RunSummary>('RunSummary', 'The run: its id, proposals by type, and any auto-approval.'),
    handle: async ({ body }, ctx) =>
      ctx.wb.runRecommendations({
        autoApprove: body.autoApprove ?? ctx.autoApprove,
        description: body.description,
        asOfDay: body.asOf === undefined ? undefined : dayOf(body.asOf),
        scenario: body.settings === undefined ? undefined : parseSettingsOverride(body.settings),
        scenarioName: body.scenario,
      }),
  }),

  'GET /demand/:locationId/:skuId': route({
    summary: 'The demand estimate and target of one location/SKU, with its parts',
    params: Type.Object({ locationId: Id('The location.'), skuId: Id('The SKU.') }),
    response: answer<DemandExplanation>('DemandExplanation', 'The estimate, its parts, and the target it gives.'),
    handle: async ({ params: { locationId, skuId } }, { wb }) => {
      const d = await wb.explainDemand(locationId, skuId);
      if (!d)
        throw new HttpProblem(404, 'not-found', `no location "${locationId}" or SKU "${skuId}" in the engine's view`);
      return d;
    },
  }),
};
