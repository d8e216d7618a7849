import type { SweepReport } from '../client';
import type { FrontierMeasure, FrontierStock } from '../FrontierChart';

/** What picks a sweep's point: a fill rate to reach with the least stock, or a stock to keep within. */
export type Constraint = { kind: 'fillRate'; value: string } | { kind: 'stock'; value: string };

/**
 * A fill rate some point meets, to start the pick on: the history's own (the engine's points should match it), to a
 * tenth of a point, else the best any point reached. A goal no point meets picks nothing, which helps no one.
 */
export function reachableFillRate(report: SweepReport): string {
  const best = Math.max(...report.runs.map((r) => r.fillRate ?? 0));
  const actual = report.actual.fillRate ?? 0;
  const goal = actual > 0 && actual <= best ? actual : best;
  return String(Math.floor(goal * 1000) / 10);
}

/** The constraint that picks a sweep's point, the point it picks and the name to keep it under. */
export interface PickProps {
  constraint: Constraint;
  onConstraint: (constraint: Constraint) => void;
  /** The point the constraint picks; null when none meets it, undefined while it is asked. */
  picked?: number | null;
  /** The name to keep the point picked under. */
  name: string;
  onName: (name: string) => void;
  /** Keeps the point picked as a scenario of that name. */
  onSave: () => void;
}

/**
 * How a sweep's frontier is drawn (lost sales or fill rate, against stock in units or value), the constraint that
 * picks a point, and the point picked kept as a scenario under the name typed.
 *
 * Over 80 lines only for its props and the markup of its one form.
 */
export function SweepPick({
  report,
  measure,
  onMeasure,
  stock,
  onStock,
  constraint,
  onConstraint,
  picked,
  name,
  onName,
  onSave,
}: {
  report: SweepReport;
  measure: FrontierMeasure;
  onMeasure: (measure: FrontierMeasure) => void;
  stock: FrontierStock;
  onStock: (stock: FrontierStock) => void;
} & PickProps) {
  /** No SKU has a cost price: stock has no value to tell, so the frontier is in units. */
  const unvalued = report.actual.inventoryValue === null;
  return (
    <div className="toolbar">
      <span className="segmented" role="group" aria-label="Measure against stock">
        {(['lostSales', 'fillRate'] as const).map((m) => (
          <button key={m} type="button" aria-pressed={measure === m} onClick={() => onMeasure(m)}>
            {m === 'lostSales' ? 'Lost sales' : 'Fill rate'}
          </button>
        ))}
      </span>
      <span className="segmented" role="group" aria-label="Stock in">
        {(['inventoryUnits', 'inventoryValue'] as const).map((m) => (
          <button
            key={m}
            type="button"
            aria-pressed={stock === m}
            onClick={() => onStock(m)}
            // Without cost prices stock has no value to tell: units it is.
            disabled={m === 'inventoryValue' && unvalued}
            title={m === 'inventoryValue' && unvalued ? 'no cost prices: value n/a' : ''}
          >
            {m === 'inventoryUnits' ? 'Units' : 'Value'}
          </button>
        ))}
      </span>
      <label>
        Pick{' '}
        <select
          aria-label="Constraint"
          value={constraint.kind}
          onChange={(e) =>
            onConstraint(
              e.target.value === 'fillRate'
                ? { kind: 'fillRate', value: reachableFillRate(report) }
                : { kind: 'stock', value: String(Math.round(report.actual.inventoryUnits)) },
            )
          }
        >
          <option value="fillRate">the least stock with a fill rate of at least (%)</option>
          <option value="stock">the least lost sales with store stock at most (units)</option>
        </select>{' '}
        <input
          aria-label="Constraint value"
          value={constraint.value}
          onChange={(e) => onConstraint({ ...constraint, value: e.target.value })}
          size={8}
        />
      </label>
      <span data-testid="picked">{picked ? `point ${picked}` : picked === null ? 'no point meets it' : ''}</span>
      <label>
        Keep as scenario <input aria-label="Scenario name" value={name} onChange={(e) => onName(e.target.value)} />
      </label>
      <button type="button" disabled={!picked || !name} onClick={onSave}>
        Save as scenario
      </button>
    </div>
  );
}
