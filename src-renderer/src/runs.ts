import type { BacktestRun } from '../../common/api-types';
import { settingName } from '../../common/setting-names';

/**
 * What a run's settings came from: a kept scenario, or a settings file given to the CLI; a sweep's point with the
 * settings it set on top ("default with Service level 0.9, Redistribution: trip cost 10").
 */
export function scenarioOf(run: BacktestRun): string {
  const base = run.scenario ?? 'settings file';
  if (!run.sweep) return base;
  const set = Object.entries(run.sweep.vary).map(([path, v]) => `${settingName(path)} ${v}`);
  return `${base} with ${set.join(', ')}`;
}

/** A run as a person calls it: its label where its user gave one, else its id. */
export const runName = (run: BacktestRun) => run.label ?? run.runId;
