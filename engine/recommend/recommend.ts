/**
 * The engine: (state as of a day, settings) → proposals. A pure function: no I/O, no clock, nothing after
 * the state's day. The same code answers the live API and every simulated day of a backtest.
 */
import { forecast, type Forecast } from '../forecast/forecast.js';
import { initialDistribution } from './initial.js';
import { EXPLAIN_ALL, type Explain, type Proposal } from './proposal.js';
import { redistribute } from './redistribute.js';
import { replenish, type Context } from './replenish.js';
import type { Settings } from './settings.js';
import type { EngineState } from './state.js';
import { targets, type Targets } from './targets.js';

export interface Recommendation {
  proposals: Proposal[];
  forecast: Forecast;
  targets: Targets;
}

export function recommend(state: EngineState, settings: Settings, explain: Explain = EXPLAIN_ALL): Recommendation {
  const f = forecast(state, settings);
  const t = targets(state, f, settings);
  const ctx: Context = {
    state,
    forecast: f,
    targets: t,
    settings,
    ids: new Set(),
    explain,
    promised: new Float64Array(state.onHand.length),
    incoming: new Float64Array(state.onHand.length),
  };
  // New styles first: they have no other way to reach the stores; replenishment then uses what is left.
  const proposals: Proposal[] = [];
  for (const [enabled, step] of [
    [settings.initialDistribution.enabled, initialDistribution],
    [settings.replenishment.enabled, replenish],
    [settings.redistribution.enabled, redistribute],
  ] as const) {
    if (enabled) for (const p of step(ctx)) proposals.push(p);
  }
  return { proposals, forecast: f, targets: t };
}
