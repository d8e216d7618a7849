/**
 * How the replay speaks to its parts (replay-part.ts): plain messages, typed arrays and records, nothing shared,
 * so a part can live in this thread, another thread (partitioned.ts), another process (across-processes.ts) or,
 * later, another machine. One message, one answer:
 *
 * - `init`: the part's start and the rows it serves; `run`: serve the days before a day;
 * - `review` (the morning of a day): the part's share of the network's sums; `plan`, given the network's sums:
 *   estimates, targets, initial distribution, and the part's share of what each store would lose before the next
 *   review; `decide`, given the stores due a delivery: replenishment, returns, and the moves redistribution would
 *   make; `carryOut`, given the part's kept moves: their decisions, and every decision of the review carried out;
 * - `finish`: the part's figures.
 */
import type { ReviewSums } from '../recommend/review.js';
import type { StyleRange } from '../recommend/slice.js';
import { ReplayPart, type PartDecided, type PartInit, type PartResult } from './replay-part.js';
import type { DecisionColumns, MoveColumns } from './decision-columns.js';

export type ToPart =
  | { kind: 'init'; init: PartInit }
  | { kind: 'run'; until: number }
  | { kind: 'review'; day: number }
  | { kind: 'plan'; network: ReviewSums }
  | { kind: 'decide'; due: Uint8Array }
  | { kind: 'carryOut'; kept: MoveColumns }
  | { kind: 'finish' };

export type FromPart =
  | { kind: 'ready' }
  | { kind: 'ran' }
  | { kind: 'sums'; sums: ReviewSums }
  | { kind: 'needs'; needs: Float64Array }
  | { kind: 'decided'; decided: PartDecided }
  | { kind: 'carried'; redistribution: DecisionColumns }
  | { kind: 'finished'; result: PartResult }
  | { kind: 'failed'; message: string };

/** What each message is answered with. */
export const ANSWER = {
  init: 'ready',
  run: 'ran',
  review: 'sums',
  plan: 'needs',
  decide: 'decided',
  carryOut: 'carried',
  finish: 'finished',
} as const satisfies Record<ToPart['kind'], FromPart['kind']>;

/** The answer a message is answered with. */
export type AnswerTo<M extends ToPart> = Extract<FromPart, { kind: (typeof ANSWER)[M['kind']] }>;

/** The part's side: answers each message. Transport-free: a thread, a process or a test feeds it. */
export function partServer(): (message: ToPart) => FromPart {
  let part: ReplayPart | undefined;
  return (m) => {
    try {
      if (m.kind === 'init') {
        part = new ReplayPart(m.init);
        return { kind: 'ready' };
      }
      if (!part) throw new Error(`a part got '${m.kind}' before 'init'`);
      switch (m.kind) {
        case 'run':
          part.run(m.until);
          return { kind: 'ran' };
        case 'review':
          return { kind: 'sums', sums: part.startReview(m.day) };
        case 'plan':
          return { kind: 'needs', needs: part.plan(m.network) };
        case 'decide':
          return { kind: 'decided', decided: part.decide(m.due) };
        case 'carryOut':
          return { kind: 'carried', redistribution: part.carryOut(m.kept) };
        case 'finish':
          return { kind: 'finished', result: part.finish() };
        default:
          throw new Error(`a part cannot answer '${(m as { kind: unknown }).kind}'`);
      }
    } catch (e) {
      return { kind: 'failed', message: (e as Error).stack ?? String(e) };
    }
  };
}

/** A part at the other end of a link. */
export interface PartLink {
  /** Sends a message; the answer comes when the part has done it. */
  ask(message: ToPart): Promise<FromPart>;
  close(): Promise<void>;
}

/** A part in this thread: it answers at once, in the caller's time. */
export function localLink(): PartLink {
  const serve = partServer();
  return { ask: async (m) => serve(m), close: async () => {} };
}

/** The answer of the kind a message asks for, or the part's failure as an error naming the part. */
export function answerTo<M extends ToPart>(message: M, answer: FromPart, range: StyleRange): AnswerTo<M> {
  const kind = ANSWER[message.kind];
  if (answer.kind === kind) return answer as AnswerTo<M>;
  const why = answer.kind === 'failed' ? answer.message : `it answered '${answer.kind}'`;
  throw new Error(`the part of SKUs ${range.kFrom}…${range.kTo} did not answer '${kind}': ${why}`);
}
