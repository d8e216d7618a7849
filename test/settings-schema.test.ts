/**
 * The settings are declared once (recommend/settings-schema.ts): their type, defaults, bounds and descriptions, the
 * schema a scenario is checked against and the feed's per-category dataset are all read off the one schema.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { describe, expect, it } from 'vitest';
import { MerchandiseCategorySetting } from '../engine/model/settings.js';
import { DEFAULT_SETTINGS, resolveSettings } from '../engine/recommend/settings.js';
import { SettingsOverrideSchema, SettingsSchema } from '../engine/recommend/settings-schema.js';

/** Every place in a schema (an object's properties and a record's values), with its path. */
function places(schema: TSchema, at = ''): { at: string; schema: TSchema; parent?: TSchema; name?: string }[] {
  const out: { at: string; schema: TSchema; parent?: TSchema; name?: string }[] = [{ at, schema }];
  for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, TSchema>))
    out.push(...places(s, `${at}/${name}`).map((p, i) => (i === 0 ? { ...p, parent: schema, name } : p)));
  for (const s of Object.values((schema.patternProperties ?? {}) as Record<string, TSchema>))
    out.push(...places(s, `${at}/{id}`));
  return out;
}

describe('settings declared once', () => {
  it('give every setting a default but the ones that mean something unset', () => {
    const unset: string[] = [];
    for (const p of places(SettingsSchema)) {
      if (!p.parent || p.at.includes('{id}')) continue;
      const required = ((p.parent.required ?? []) as string[]).includes(p.name!);
      if (!required) unset.push(p.at);
      else if (p.schema.type !== 'object' || p.schema.patternProperties)
        expect(p.schema.default, `${p.at} has a default`).not.toBeUndefined();
    }
    expect(unset.sort()).toEqual(['/defaults/leadTimeDays', '/defaults/maximumStock']);
    expect(TypeCompiler.Compile(SettingsSchema).Check(DEFAULT_SETTINGS)).toBe(true);
    expect(DEFAULT_SETTINGS.defaults.serviceLevel).toBe(
      SettingsSchema.properties.defaults.properties.serviceLevel.default,
    );
  });

  it('check a scenario against the same schema with every setting optional and no defaults to fill in', () => {
    const all = places(SettingsOverrideSchema);
    expect(all.length).toBe(places(SettingsSchema).length);
    for (const p of all) {
      expect(p.schema.default, p.at).toBeUndefined();
      expect(p.schema.required ?? [], p.at).toEqual([]);
    }
    const check = TypeCompiler.Compile(SettingsOverrideSchema);
    expect(check.Check({})).toBe(true);
    expect(check.Check({ redistribution: { tripCost: 5 } })).toBe(true);
    expect(check.Check({ redistribution: { tripCost: -1 } })).toBe(false);
    expect(check.Check({ defaults: { servicelevel: 0.8 } })).toBe(false);
  });

  it("describe every setting, and take the feed's category settings as a scenario's", () => {
    for (const p of places(SettingsSchema))
      if (p.parent && !p.at.startsWith('/categories') && p.schema.type !== 'object')
        expect(p.schema.description, p.at).toMatch(/\w/);
    const fed = Object.keys(MerchandiseCategorySetting.properties).filter((k) => k !== 'merchandiseCategoryId');
    expect(fed.sort()).toEqual(Object.keys(SettingsSchema.properties.defaults.properties).sort());
  });

  it('lay a scenario over the workspace over the defaults, sharing nothing with them', () => {
    const s = resolveSettings(
      { A: { serviceLevel: 0.8, reviewPeriodDays: 5 } },
      { categories: { A: { reviewPeriodDays: 3 } }, redistribution: { tripCost: 5 }, defaults: { leadTimeDays: 2 } },
    );
    expect(s.categories.A).toEqual({ serviceLevel: 0.8, reviewPeriodDays: 3 });
    expect(s.redistribution).toEqual({ ...DEFAULT_SETTINGS.redistribution, tripCost: 5 });
    expect(s.defaults).toEqual({ ...DEFAULT_SETTINGS.defaults, leadTimeDays: 2 });
    s.defaults.serviceLevel = 0.5;
    s.replenishment.enabled = false;
    expect(DEFAULT_SETTINGS.defaults.serviceLevel).toBe(0.9);
    expect(DEFAULT_SETTINGS.replenishment.enabled).toBe(true);
    expect(resolveSettings({}, {}).defaults.leadTimeDays).toBeUndefined();
  });
});
