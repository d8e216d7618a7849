/**
 * The scenarios: named overrides of the engine's settings kept in the workspace (`workspace_settings`, under
 * `scenario:`), checked against the settings' schema when kept and again when a run reads them.
 */
import { RequestRejected } from '../../model/problems.js';
import { parseSettingsOverride, SettingsInvalid } from '../../recommend/settings-schema.js';
import {
  DEFAULT_SCENARIO,
  type CategorySettings,
  type LocationKind,
  type SettingsOverride,
} from '../../recommend/settings.js';
import { categorySettingsOf, defaultAsOfDay, locationKindsOfData } from '../../inputs/engine-state.js';
import type { ServiceContext } from './context.js';

/** What a scenario may be called: it is a key in the workspace and a part of the screens' addresses. */
const SCENARIO_NAME = /^[\w.-]{1,80}$/;
const SCENARIO_PREFIX = 'scenario:';

/** What a scenario's settings sit on (see `settingsContext`). */
export interface SettingsContext {
  categories: { id: string; code?: string; description?: string }[];
  fromWorkspace: Record<string, Partial<CategorySettings>>;
  locations: { id: string; name: string; kind: LocationKind }[];
}

/** Refuses a name a scenario may not have. */
export function checkScenarioName(name: string): void {
  if (!SCENARIO_NAME.test(name))
    throw new RequestRejected(
      `a scenario name is 1 to 80 letters, digits, ".", "-" or "_", got "${name.slice(0, 80)}"`,
    );
}

export class ScenarioService {
  constructor(private readonly ctx: ServiceContext) {}

  /**
   * What a scenario's settings sit on: the merchandise categories of the data, the settings the data gives them
   * (MerchandiseCategorySettings), which a scenario overrides, and the locations its per-location settings name,
   * each with the kind its sales give it.
   */
  settingsContext(): Promise<SettingsContext> {
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => {
      const rows = await ws.rows<{ id: string; code: string; description: string | null }>(
        `SELECT merchandiseCategoryId AS id, code, description FROM merchandise_categories
         WHERE _deleted_at IS NULL ORDER BY code, merchandiseCategoryId`,
      );
      const fromWorkspace = await categorySettingsOf(ws);
      const known = new Set(rows.map((r) => r.id));
      const categories = [
        ...rows.map((r) => ({ id: r.id, code: r.code ?? undefined, description: r.description ?? undefined })),
        ...Object.keys(fromWorkspace)
          .filter((id) => !known.has(id))
          .sort()
          .map((id) => ({ id })),
      ];
      const named = await ws.rows<{ id: string; name: string }>(
        `SELECT locationId AS id, name FROM locations WHERE _deleted_at IS NULL ORDER BY locationId`,
      );
      const kinds = await locationKindsOfData(ws, await defaultAsOfDay(ws, this.ctx.clock()));
      const locations = named.map((l) => ({ ...l, kind: kinds.get(l.id) ?? 'warehouse' }));
      return { categories, fromWorkspace, locations };
    });
  }

  /** A scenario kept in the workspace: overrides of the engine's defaults, by name. */
  scenario(name = DEFAULT_SCENARIO): Promise<SettingsOverride> {
    return this.ctx.workspace.exclusive(() => this.stored(name));
  }

  /** The names of the scenarios kept in the workspace. */
  async scenarios(): Promise<string[]> {
    const ws = this.ctx.workspace;
    const rows = await ws.exclusive(() =>
      ws.rows<{ key: string }>(`SELECT key FROM workspace_settings WHERE key LIKE '${SCENARIO_PREFIX}%' ORDER BY key`),
    );
    return rows.map((r) => r.key.slice(SCENARIO_PREFIX.length));
  }

  /** Validates and keeps a scenario; a bad one is refused whole with every problem named. */
  async setScenario(value: unknown, name = DEFAULT_SCENARIO): Promise<SettingsOverride> {
    checkScenarioName(name);
    const scenario = parseSettingsOverride(value);
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => {
      await ws.run('INSERT OR REPLACE INTO workspace_settings VALUES ($1, $2)', [
        SCENARIO_PREFIX + name,
        JSON.stringify(scenario),
      ]);
      return scenario;
    });
  }

  /**
   * Deletes a kept scenario. The default one stays: it is what every run without a scenario uses (saving it empty
   * gives the engine's defaults back). Runs made with a deleted scenario keep the settings they ran with.
   */
  async deleteScenario(name: string): Promise<void> {
    if (name === DEFAULT_SCENARIO)
      throw new RequestRejected(
        `the "${DEFAULT_SCENARIO}" scenario is what runs use when none is named: it can be emptied, not deleted`,
        409,
      );
    const ws = this.ctx.workspace;
    return ws.exclusive(async () => {
      await this.stored(name);
      await ws.run('DELETE FROM workspace_settings WHERE key = $1', [SCENARIO_PREFIX + name]);
    });
  }

  /** Gives a kept scenario another name that no scenario holds yet, in one step. */
  async renameScenario(name: string, to: string): Promise<void> {
    if (name === DEFAULT_SCENARIO)
      throw new RequestRejected(`the "${DEFAULT_SCENARIO}" scenario keeps its name: duplicate it instead`, 409);
    checkScenarioName(to);
    const ws = this.ctx.workspace;
    return ws.exclusive(() =>
      ws.transaction(async () => {
        const scenario = await this.stored(name);
        await this.keepNew(to, scenario, () =>
          ws.run('DELETE FROM workspace_settings WHERE key = $1', [SCENARIO_PREFIX + name]),
        );
      }),
    );
  }

  /**
   * Keeps a scenario under a name no scenario holds yet, refusing a name taken so that none is overwritten by a
   * click; `before` runs once the name is known to be free. The caller holds the workspace, in a transaction.
   */
  async keepNew(name: string, scenario: SettingsOverride, before?: () => Promise<unknown>): Promise<void> {
    checkScenarioName(name);
    const ws = this.ctx.workspace;
    const [taken] = await ws.rows('SELECT 1 FROM workspace_settings WHERE key = $1', [SCENARIO_PREFIX + name]);
    if (taken) throw new RequestRejected(`a scenario "${name}" is kept already`, 409);
    await before?.();
    await ws.run('INSERT INTO workspace_settings VALUES ($1, $2)', [SCENARIO_PREFIX + name, JSON.stringify(scenario)]);
  }

  /**
   * A kept scenario as a run reads it: checked against the settings' schema again, so one kept under looser bounds
   * than today's is refused with each field named, not run. The caller holds the workspace.
   */
  async keptSettings(name = DEFAULT_SCENARIO): Promise<SettingsOverride> {
    const kept = await this.stored(name);
    try {
      return parseSettingsOverride(kept);
    } catch (e) {
      if (!(e instanceof SettingsInvalid)) throw e;
      throw new SettingsInvalid(
        e.problems,
        `the kept scenario "${name}" holds settings out of their bounds; save it again within them`,
      );
    }
  }

  /** The scenario as kept, unchecked; the default one is empty until it is saved. */
  private async stored(name = DEFAULT_SCENARIO): Promise<SettingsOverride> {
    const [row] = await this.ctx.workspace.rows<{ value: string }>(
      'SELECT value FROM workspace_settings WHERE key = $1',
      [SCENARIO_PREFIX + name],
    );
    if (!row && name !== DEFAULT_SCENARIO) throw new RequestRejected(`no scenario "${name}" in this workspace`, 404);
    return row ? (JSON.parse(row.value) as SettingsOverride) : {};
  }
}
