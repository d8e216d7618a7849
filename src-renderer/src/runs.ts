import type { BacktestRun } from './client';

/** What a run's settings came from: a kept scenario, or a settings file given to the CLI. */
export const scenarioOf = (run: BacktestRun) => run.scenario ?? 'settings file';

/** A run as a person calls it: its label where its user gave one, else its id. */
export const runName = (run: BacktestRun) => run.label ?? run.runId;
