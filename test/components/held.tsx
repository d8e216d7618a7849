import { render } from '@testing-library/react';
import { useState, type ReactElement } from 'react';

/**
 * A controlled piece rendered with its value held as a screen holds it: every change it hands back is shown again,
 * and the last one is kept for the test to read.
 */
export function renderHeld<V>(start: V, piece: (value: V, onChange: (value: V) => void) => ReactElement) {
  const seen = { value: start };
  function Holder() {
    const [value, setValue] = useState(start);
    return piece(value, (v) => {
      seen.value = v;
      setValue(v);
    });
  }
  render(<Holder />);
  return seen;
}
