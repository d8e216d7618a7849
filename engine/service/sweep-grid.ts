/**
 * A sweep's grid: the settings it varies and their values, made into one scenario per point. What may vary, and
 * within which bounds, is read off the settings' own schema, so a sweep and a saved scenario refuse the same values.
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import { RequestRejected, type Problem } from '../model/problems.js';
import { parseSettingsOverride, SettingsOverrideSchema } from '../recommend/settings-schema.js';
import type { SettingsOverride } from '../recommend/settings.js';

/** More points than this is not a sweep a laptop finishes: the grid is refused. */
export const MAX_SWEEP_POINTS = 200;

export interface Sweepable {
  /** Dotted path into a scenario's settings: `defaults.serviceLevel`, `redistribution.tripCost`. */
  path: string;
  description: string;
  minimum?: number;
  maximum?: number;
  integer: boolean;
}

export interface SweepAxis {
  /** A sweepable path, or a category setting's bare name (`serviceLevel` for `defaults.serviceLevel`). */
  setting: string;
  values: number[];
}

/** Every number a scenario sets, except per-category ones (a sweep varies the defaults every category takes). */
export const SWEEPABLE: readonly Sweepable[] = (() => {
  const out: Sweepable[] = [];
  const walk = (schema: TObject, prefix: string) => {
    for (const [name, raw] of Object.entries(schema.properties)) {
      const s = raw as TSchema;
      if (s.type === 'object' && s.properties && name !== 'categories') walk(s as TObject, `${prefix}${name}.`);
      else if (s.type === 'number' || s.type === 'integer')
        out.push({
          path: `${prefix}${name}`,
          description: String(s.description ?? ''),
          ...(typeof s.minimum === 'number' ? { minimum: s.minimum } : {}),
          ...(typeof s.maximum === 'number' ? { maximum: s.maximum } : {}),
          integer: s.type === 'integer',
        });
    }
  };
  walk(SettingsOverrideSchema, '');
  return out;
})();

/** The sweepable a name means: its path, or a category setting by its bare name. */
export function sweepableOf(setting: string): Sweepable | undefined {
  return SWEEPABLE.find((s) => s.path === setting) ?? SWEEPABLE.find((s) => s.path === `defaults.${setting}`);
}

/** `serviceLevel=0.85,0.9` (the command line's --vary) as an axis. */
export function parseVary(spec: string): SweepAxis {
  const at = spec.indexOf('=');
  if (at <= 0) throw new RequestRejected(`--vary ${spec}: write it as setting=value,value,…`);
  const values = spec
    .slice(at + 1)
    .split(',')
    .map((v) => v.trim());
  return { setting: spec.slice(0, at).trim(), values: values.map((v) => (v === '' ? Number.NaN : Number(v))) };
}

/** A point of the grid: the value of each varied setting, by path. */
export type SweepPoint = Record<string, number>;

/** The grid's points (every combination, the first axis slowest) and each one's scenario on top of `base`. */
export function sweepGrid(
  axes: readonly SweepAxis[],
  base: SettingsOverride = {},
): { points: SweepPoint[]; scenarios: SettingsOverride[] } {
  // Every refusal names its place in the request (`/vary/0/values/1`), as a body's schema errors do; the detail
  // names the setting.
  const problems: Problem[] = [];
  const details: string[] = [];
  const refuse = (path: string, message: string, setting?: string) => {
    problems.push({ path, message });
    details.push(setting === undefined ? message : `${setting}: ${message}`);
  };
  const refused = () => new RequestRejected(details.join('; '), 400, problems);
  if (axes.length === 0) refuse('/vary', 'a sweep varies at least one setting');
  const resolved = axes.flatMap((axis, i) => {
    const where = `vary[${i}] (${axis.setting})`;
    const s = sweepableOf(axis.setting);
    if (!s) {
      refuse(
        `/vary/${i}/setting`,
        `no such setting; a sweep varies one of ${SWEEPABLE.map((x) => x.path).join(', ')}`,
        where,
      );
      return [];
    }
    if (axis.values.length === 0) refuse(`/vary/${i}/values`, 'give at least one value', where);
    axis.values.forEach((v, j) => {
      const at = `/vary/${i}/values/${j}`;
      if (typeof v !== 'number' || !Number.isFinite(v)) refuse(at, `"${v}" is not a number`, where);
      else if (s.integer && !Number.isInteger(v)) refuse(at, `${v} is not a whole number`, where);
      else if (s.minimum !== undefined && v < s.minimum) refuse(at, `${v} is below its minimum ${s.minimum}`, where);
      else if (s.maximum !== undefined && v > s.maximum) refuse(at, `${v} is above its maximum ${s.maximum}`, where);
    });
    const twice = axis.values.findIndex((v, j) => axis.values.indexOf(v) !== j);
    if (twice >= 0) refuse(`/vary/${i}/values/${twice}`, 'a value is given twice', where);
    return [{ path: s.path, values: axis.values, i }];
  });
  const twice = resolved.find((r, n) => resolved.findIndex((x) => x.path === r.path) !== n);
  if (twice) refuse(`/vary/${twice.i}/setting`, `${twice.path} is varied twice`);
  if (problems.length) throw refused();
  const count = resolved.reduce((n, r) => n * r.values.length, 1);
  if (count > MAX_SWEEP_POINTS) {
    // Name the factors, so the user sees which settings to give fewer values.
    const factors = resolved.map((r) => `${r.path}: ${r.values.length} value${r.values.length === 1 ? '' : 's'}`);
    refuse(
      '/vary',
      `the grid has ${count} points (${factors.join(' × ')}); a sweep runs at most ${MAX_SWEEP_POINTS}: ` +
        'give these settings fewer values',
    );
    throw refused();
  }

  let points: SweepPoint[] = [{}];
  for (const r of resolved) points = points.flatMap((p) => r.values.map((v) => ({ ...p, [r.path]: v })));
  const scenarios = points.map((p) => {
    const scenario = structuredClone(base) as Record<string, unknown>;
    for (const [path, v] of Object.entries(p)) {
      const parts = path.split('.');
      let at = scenario;
      for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
      at[parts[parts.length - 1]] = v;
    }
    return parseSettingsOverride(scenario);
  });
  return { points, scenarios };
}
