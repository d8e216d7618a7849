/**
 * The scenario's `fulfilledFrom` checked against the workspace's locations and applied to the engine's state: the
 * one setting that names the data, so the one checked when the state is read rather than when it is kept.
 */
import { escapePointer } from '../model/schema-errors.js';
import { SettingsInvalid } from '../recommend/settings-schema.js';
import type { Settings } from '../recommend/settings.js';
import type { EngineState } from '../recommend/state.js';

/**
 * Online locations that sell from a warehouse's stock (settings.fulfilledFrom): each names a location of the
 * workspace, is online, and sells from a warehouse's stock. A setting that names a location the data does not hold,
 * or a fulfiller that sells, is refused with its path: a typo would otherwise change nothing without a word.
 */
export function applyFulfilment(state: EngineState, settings: Settings): void {
  const { ids, kind, fulfilledFrom } = state.locations;
  const entries = Object.entries(settings.fulfilledFrom);
  if (entries.length === 0) return;
  const index = new Map(ids.map((id, l) => [id, l]));
  const problems: { path: string; message: string }[] = [];
  const pointer = (id: string) => `/fulfilledFrom/${escapePointer(id)}`;
  // A location that sells from another's stock is online whatever its sales say.
  for (const [id] of entries) {
    const l = index.get(id);
    if (l === undefined) problems.push({ path: pointer(id), message: `the workspace holds no location ${id}` });
    else kind[l] = 'online';
  }
  for (const [id, from] of entries) {
    const l = index.get(id);
    const w = index.get(from);
    if (w === undefined) problems.push({ path: pointer(id), message: `the workspace holds no location ${from}` });
    else if (kind[w] !== 'warehouse')
      problems.push({
        path: pointer(id),
        message:
          `${from} is not a warehouse (it is ${kind[w] === 'online' ? 'online' : 'a store'}): ` +
          `an online location sells from a warehouse's stock`,
      });
    else if (l !== undefined) fulfilledFrom[l] = w;
  }
  if (problems.length) throw new SettingsInvalid(problems);
}
