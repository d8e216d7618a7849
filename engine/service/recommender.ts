/** The engine as the service runs it: settings and state from the workspace, then the pure recommend. */
import { recommend, type Recommendation } from '../recommend/recommend.js';
import { resolveSettings, type Settings, type SettingsOverride } from '../recommend/settings.js';
import type { EngineState } from '../recommend/state.js';
import { categorySettingsOf, defaultAsOfDay, loadEngineState } from '../inputs/engine-state.js';
import type { Workspace } from '../store/workspace.js';
import { DAY_MICROS, dayOf } from '../model/datetime.js';
import { dataFingerprint } from '../store/history-cache.js';
import { LiveDays } from '../inputs/live-days.js';
import { KeptNetwork } from '../inputs/network-rows.js';

export interface RunOptions {
  /**
   * The decision day (days since 1970-01-01), reviewed as of its morning; default: now, with everything received
   * until this moment — or, when the data ends before today, the morning after it.
   */
  asOfDay?: number;
  scenario?: SettingsOverride;
}

export interface EngineRun extends Recommendation {
  state: EngineState;
  settings: Settings;
  /** The moment the run's stock stands at: now, or the morning of its day. */
  asOfMicros: number;
}

export type Recommender = (ws: Workspace, nowMicros: number, options: RunOptions) => Promise<EngineRun>;

/** What a live run keeps for the next: the days it derived (live-days.ts) and its network's rows (network-rows.ts). */
interface Kept {
  days: LiveDays;
  network: KeptNetwork;
}

/** What each open workspace's last live run kept: a process pays for it once. */
const kept = new WeakMap<Workspace, Kept>();

function keptOf(ws: Workspace): Kept {
  let k = kept.get(ws);
  if (!k) kept.set(ws, (k = { days: new LiveDays(), network: new KeptNetwork() }));
  return k;
}

async function runEngine(ws: Workspace, nowMicros: number, options: RunOptions, keep?: Kept): Promise<EngineRun> {
  const settings = resolveSettings(await categorySettingsOf(ws), options.scenario);
  const asOfDay = options.asOfDay ?? (await defaultAsOfDay(ws, nowMicros));
  const atMoment = options.asOfDay === undefined && asOfDay === dayOf(nowMicros);
  const state = await loadEngineState(ws, asOfDay, settings, { kind: 'live', nowMicros, atMoment, ...keep });
  return { ...recommend(state, settings), state, settings, asOfMicros: atMoment ? nowMicros : asOfDay * DAY_MICROS };
}

/** The engine on the workspace, each run standing on what the one before kept where it stands. */
export const engineRecommender: Recommender = (ws, nowMicros, options) => runEngine(ws, nowMicros, options, keptOf(ws));

/** The same for a process that runs once (a command): nothing is kept, as nothing would stand on it. */
export const oneRunRecommender: Recommender = (ws, nowMicros, options) => runEngine(ws, nowMicros, options);

/**
 * Everything a live run reads besides the clock: every data table, and the proposals (an approved one is stock on
 * its way). Two runs on the same day under the same stamp and scenario read the same inputs, save events stamped
 * between the two moments.
 */
export async function liveInputsStamp(ws: Workspace): Promise<string> {
  const [p] = await ws.rows<{ v: string }>(
    `SELECT concat_ws('|', count(*), count(approvalBatchId), max(createdAt), max(confirmedDateTime)) AS v
     FROM transfer_proposals`,
  );
  return `${await dataFingerprint(ws)};proposals=${p.v}`;
}
