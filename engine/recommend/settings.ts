/**
 * Engine settings: one typed object with documented defaults, declared once in settings-schema.ts. Per
 * merchandise category a value of MerchandiseCategorySettings overrides the default; a scenario overrides both.
 */
import { DEFAULT_SETTINGS, type CategorySettings, type Settings, type SettingsOverride } from './settings-schema.js';

export { DEFAULT_SETTINGS };
export type { CategorySettings, LocationKind, Settings, SettingsOverride } from './settings-schema.js';

/** The scenario a run uses when none is named; it overrides nothing until someone saves it. */
export const DEFAULT_SCENARIO = 'default';

const isSection = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `base` with what `over` states laid over it, section by section; an unset value changes nothing. */
function overlay<T>(base: T, over: unknown): T {
  if (!isSection(base) || !isSection(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) if (v !== undefined) out[k] = overlay(out[k], v);
  return out as T;
}

/**
 * Settings = defaults ← per-category values from the workspace ← a scenario's overrides: a copy of its own, which
 * shares no section with the defaults or the arguments.
 */
export function resolveSettings(
  fromWorkspace: Record<string, Partial<CategorySettings>>,
  scenario: SettingsOverride = {},
): Settings {
  return structuredClone(overlay(overlay(DEFAULT_SETTINGS, { categories: fromWorkspace }), scenario));
}

/**
 * The days a store's stock must last until stock can come again: the review period, or the days a delivery covers
 * when deliveries are fewer than reviews.
 */
export function coverDays(cs: CategorySettings, settings: Pick<Settings, 'replenishment'>): number {
  return Math.max(cs.reviewPeriodDays, settings.replenishment.deliveryEveryDays);
}

/** The lead time the engine plans a transfer to location `l` with: the settings', else the data's transit. */
export function planningLead(
  cs: CategorySettings,
  state: { locations: { transitDays: Int32Array } },
  l: number,
): number {
  return cs.leadTimeDays ?? state.locations.transitDays[l];
}

export function categorySettings(settings: Settings, categoryId: string | undefined): CategorySettings {
  const own = categoryId === undefined ? undefined : settings.categories[categoryId];
  if (!own) return settings.defaults;
  const merged = { ...settings.defaults };
  for (const [k, v] of Object.entries(own))
    if (v !== undefined && v !== null) (merged as Record<string, unknown>)[k] = v;
  return merged;
}
