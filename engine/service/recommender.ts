/** The engine as the service runs it: settings and state from the workspace, then the pure recommend. */
import { recommend, type Recommendation } from '../recommend/recommend.js';
import { resolveSettings, type Settings, type SettingsOverride } from '../recommend/settings.js';
import type { EngineState } from '../recommend/state.js';
import { categorySettingsOf, defaultAsOfDay, loadEngineState } from '../store/engine-state.js';
import type { Workspace } from '../store/workspace.js';

export interface RunOptions {
  /** The decision day (days since 1970-01-01); default: today, or the day after the latest data. */
  asOfDay?: number;
  scenario?: SettingsOverride;
}

export interface EngineRun extends Recommendation {
  state: EngineState;
  settings: Settings;
}

export type Recommender = (ws: Workspace, nowMicros: number, options: RunOptions) => Promise<EngineRun>;

export const engineRecommender: Recommender = async (ws, nowMicros, options) => {
  const settings = resolveSettings(await categorySettingsOf(ws), options.scenario);
  const asOfDay = options.asOfDay ?? (await defaultAsOfDay(ws, nowMicros));
  const state = await loadEngineState(ws, asOfDay, settings, { kind: 'live', nowMicros });
  return { ...recommend(state, settings), state, settings };
};
