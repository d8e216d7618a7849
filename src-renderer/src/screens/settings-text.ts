import type { Values } from './SettingsFields';

/** A text as the settings it holds, or why it holds none: the settings are one JSON object. */
export function parseSettings(text: string): { value: Values } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { error: `Not JSON: ${(e as Error).message}` };
  }
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? { value: parsed as Values }
    : { error: 'The settings are one JSON object: { … }' };
}
