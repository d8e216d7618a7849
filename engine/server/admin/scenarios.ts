/** Admin routes on the scenarios: named settings kept in the workspace, checked against the settings' schema. */
import { Type } from '@sinclair/typebox';
import { DEFAULT_SCENARIO, DEFAULT_SETTINGS, type Settings, type SettingsOverride } from '../../recommend/settings.js';
import { SettingsOverrideSchema } from '../../recommend/settings-schema.js';
import type { Workbench } from '../../service/workbench.js';
import type { ServerContext } from '../context.js';
import { answer, routeFor } from './route.js';
import { Id } from './schemas.js';

const route = routeFor<ServerContext>();

/**
 * What the settings screen works from: the kept scenarios' names, the one runs use when none is named, the engine's
 * defaults, the settings' JSON Schema, and the merchandise categories with the settings the data gives them.
 */
export type ScenarioContext = {
  scenarios: string[];
  defaultScenario: string;
  defaults: Settings;
  schema: unknown;
} & Awaited<ReturnType<Workbench['settingsContext']>>;

const ScenarioAnswer = answer<{ scenario: SettingsOverride }>('Scenario', "{scenario}: the scenario's settings.");
const Name = Type.Object({ name: Id("The scenario's name.") });

export const scenarioRoutes = {
  'GET /scenarios': route({
    summary:
      'The scenarios kept in the workspace, the one runs use when none is named, the engine defaults, ' +
      "the settings' JSON Schema, the merchandise categories with the settings the data gives them, and the " +
      'locations',
    response: answer<ScenarioContext>('ScenarioContext', 'What the settings screen works from.'),
    handle: async (_, { wb }) => ({
      scenarios: await wb.scenarios(),
      defaultScenario: DEFAULT_SCENARIO,
      defaults: DEFAULT_SETTINGS,
      schema: SettingsOverrideSchema,
      ...(await wb.settingsContext()),
    }),
  }),

  'GET /scenarios/:name': route({
    summary: "One scenario's settings",
    params: Name,
    response: ScenarioAnswer,
    handle: async ({ params }, { wb }) => ({ scenario: await wb.scenario(params.name) }),
  }),

  'DELETE /scenarios/:name': route({
    summary: 'Delete a kept scenario (not the default one); runs made with it keep their settings',
    params: Name,
    response: answer<{ deleted: string }>('ScenarioDeleted', '{deleted}: the scenario deleted.'),
    handle: async ({ params }, { wb }) => {
      await wb.deleteScenario(params.name);
      return { deleted: params.name };
    },
  }),

  'POST /scenarios/:name/rename': route({
    summary: 'Give a kept scenario (not the default one) a name no other scenario holds',
    params: Name,
    body: Type.Object({ to: Id('The new name.') }, { additionalProperties: false }),
    response: answer<{ renamed: string; to: string }>('ScenarioRenamed', '{renamed, to}: the old and the new name.'),
    handle: async ({ params, body }, { wb }) => {
      await wb.renameScenario(params.name, body.to);
      return { renamed: params.name, to: body.to };
    },
  }),

  'PUT /scenarios/:name': route({
    summary: "Replace a scenario's settings; no body clears them to the engine defaults",
    params: Name,
    body: SettingsOverrideSchema,
    bodyOptional: true,
    response: ScenarioAnswer,
    handle: async ({ params, body }, { wb }) => ({ scenario: await wb.setScenario(body, params.name) }),
  }),
};
