import type { ScenarioContext } from '../client';
import { pointerToken } from './SettingsFields';

/**
 * Online shops that ship from a warehouse's stock (`fulfilledFrom`): a row per shop, its warehouse picked from the
 * workspace's locations, each labelled with the kind its sales give it. Any may be picked (a scenario's
 * `locationKinds` may make a location a warehouse); a run refuses a warehouse that is none.
 */
export function Fulfilment({
  locations,
  pairs,
  problems,
  onChange,
}: {
  locations: ScenarioContext['locations'];
  pairs: Record<string, string>;
  problems: Record<string, string>;
  onChange: (pairs: Record<string, string>) => void;
}) {
  const rows = Object.entries(pairs);
  const free = locations.filter((l) => !(l.id in pairs));
  const label = (l: ScenarioContext['locations'][number]) => `${l.id} — ${l.name} (${l.kind})`;
  const options = (ids: ScenarioContext['locations']) =>
    ids.map((l) => (
      <option key={l.id} value={l.id}>
        {label(l)}
      </option>
    ));
  /** The pairs with the row at `at` replaced (or removed), in the order shown. */
  const withRow = (at: number, row?: [string, string]) =>
    Object.fromEntries(rows.flatMap((r, i) => (i !== at ? [r] : row ? [row] : [])));
  return (
    <fieldset className="fields__group">
      <legend>Online shops that ship from a warehouse</legend>
      <p className="hint">
        An online location that keeps no stock of its own sells from its warehouse&apos;s: a backtest serves its
        customers from there and counts its stock there, and the engine sends it nothing.
      </p>
      {rows.map(([online, warehouse], i) => {
        const problem = problems[`/fulfilledFrom/${pointerToken(online)}`];
        return (
          <div key={online} className={`toolbar${problem ? ' field--bad' : ''}`}>
            <select
              aria-label="Online location"
              value={online}
              onChange={(e) => onChange(withRow(i, [e.target.value, warehouse]))}
            >
              {options(locations.filter((l) => l.id === online || !(l.id in pairs)))}
            </select>{' '}
            sells from{' '}
            <select
              aria-label={`Warehouse of ${online}`}
              value={warehouse}
              onChange={(e) => onChange(withRow(i, [online, e.target.value]))}
            >
              {options(locations.filter((l) => l.id !== online))}
            </select>{' '}
            <button type="button" onClick={() => onChange(withRow(i))}>
              Remove
            </button>
            {problem && <span className="field__problem">{problem}</span>}
          </div>
        );
      })}
      {free.length > 0 && locations.length > 1 && (
        <button
          type="button"
          onClick={() => {
            // What the data's sales make online and a warehouse first: the likeliest pick.
            const online = (free.find((l) => l.kind === 'online') ?? free[0]).id;
            const others = locations.filter((l) => l.id !== online);
            onChange({ ...pairs, [online]: (others.find((l) => l.kind === 'warehouse') ?? others[0]).id });
          }}
        >
          Add an online shop
        </button>
      )}
    </fieldset>
  );
}
