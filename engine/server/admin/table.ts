/**
 * The admin API's route table, by domain: the one description of every `/_workbench/` route that the server
 * registers, the OpenAPI document shows and the renderer's client is typed from (as types only).
 */
import { backtestRoutes } from './backtests.js';
import { datasetRoutes } from './datasets.js';
import { deskRoutes } from './desk.js';
import { loadRoutes } from './load.js';
import { logRoutes } from './log.js';
import { recommendationRoutes } from './recommendations.js';
import type { ArrowTable } from '../arrow.js';
import type { CallInput, CallReply } from './route.js';
import { scenarioRoutes } from './scenarios.js';
import { sweepRoutes } from './sweeps.js';
import { transferRoutes } from './transfers.js';

/** The routes every server has: they reach the workspace's service. */
export const ADMIN_ROUTES = {
  ...datasetRoutes,
  ...loadRoutes,
  ...scenarioRoutes,
  ...recommendationRoutes,
  ...transferRoutes,
  ...backtestRoutes,
  ...sweepRoutes,
  ...logRoutes,
};

/** The routes of the app's own server (browser mode and the desktop bridge): workspaces and the local API. */
export const DESK_ROUTES = deskRoutes;

export type AdminApi = typeof ADMIN_ROUTES & typeof DESK_ROUTES;
export type AdminRouteKey = keyof AdminApi;
/** What a call to a route passes: its path params, query and body, each where the route has one. */
export type AdminInput<K extends AdminRouteKey> = CallInput<AdminApi[K]>;
/** What a route answers with (as JSON). */
export type AdminReply<K extends AdminRouteKey> = CallReply<AdminApi[K]>;
/** The routes that can answer as an Arrow IPC stream. */
export type ArrowRouteKey = {
  [K in AdminRouteKey]: AdminApi[K] extends { arrow?: infer A } ? (A extends ArrowTable ? K : never) : never;
}[AdminRouteKey];
