import type { ScenarioContext } from '../client';

/** A scenario as the JSON it is kept as, typed freely (it may not be JSON yet), beside the engine's defaults. */
export function SettingsJson({
  text,
  defaults,
  onChange,
}: {
  text: string;
  defaults: ScenarioContext['defaults'];
  onChange: (text: string) => void;
}) {
  return (
    <div className="settings">
      <label className="settings__edit">
        Overrides (JSON)
        <textarea
          aria-label="Scenario settings"
          spellCheck={false}
          rows={24}
          value={text}
          onChange={(e) => onChange(e.target.value)}
        />
      </label>
      <details className="settings__defaults" open>
        <summary>Engine defaults</summary>
        <pre>{JSON.stringify(defaults, null, 2)}</pre>
      </details>
    </div>
  );
}
