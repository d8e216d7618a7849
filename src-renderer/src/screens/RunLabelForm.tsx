import { useState } from 'react';
import type { KeptRun } from '../client';

/** A run's label and note, edited where it is listed. */
export function RunLabelForm({
  run,
  save,
  cancel,
}: {
  run: KeptRun;
  save: (change: { label: string; note: string }) => void;
  cancel: () => void;
}) {
  const [label, setLabel] = useState(run.label ?? '');
  const [note, setNote] = useState(run.note ?? '');
  return (
    <form
      className="runs__label"
      aria-label={`Label of ${run.runId}`}
      onSubmit={(e) => {
        e.preventDefault();
        save({ label, note });
      }}
    >
      <label>
        Label{' '}
        <input name="run-label" value={label} maxLength={200} onChange={(e) => setLabel(e.target.value)} autoFocus />
      </label>
      <label>
        Note{' '}
        <textarea name="run-note" value={note} maxLength={4000} rows={2} onChange={(e) => setNote(e.target.value)} />
      </label>
      <span>
        <button type="submit">Save</button>{' '}
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </span>
    </form>
  );
}
