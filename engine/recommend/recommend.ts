/**
 * The engine: (state as of a day, settings) → proposals. A pure function: no I/O, no clock, nothing after
 * the state's day. The same code answers the live API and every simulated day of a backtest, where the network's
 * styles may be reviewed in parts (review.ts); here the whole state is one part.
 */
import type { Forecast } from '../forecast/forecast.js';
import { EXPLAIN_ALL, proposalOf, type Explain, type Proposal } from './proposal.js';
import { chooseTrips, keepMoves } from './redistribute.js';
import { ReviewPart } from './review.js';
import type { Settings } from './settings.js';
import type { EngineState } from './state.js';
import type { Targets } from './targets.js';

export interface Recommendation {
  proposals: Proposal[];
  forecast: Forecast;
  targets: Targets;
}

export function recommend(state: EngineState, settings: Settings, explain: Explain = EXPLAIN_ALL): Recommendation {
  const part = new ReviewPart(state, settings, explain);
  const { decisions, moves } = part.decide(part.sums());
  const L = state.locations.ids.length;
  const kept = keepMoves(moves, chooseTrips(moves, L, settings), L, state.styles.ids.length);
  const ids = new Set<string>();
  const proposals: Proposal[] = [];
  for (const d of decisions) proposals.push(proposalOf(state, ids, d));
  for (const d of part.redistribute(kept)) proposals.push(proposalOf(state, ids, d));
  return { proposals, forecast: part.forecast, targets: part.targets };
}
