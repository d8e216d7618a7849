/**
 * A filter's choice among values: the first option, empty, lets every value through. A value is its own label
 * unless it comes with one (`[value, label]`).
 */
export function FilterSelect({
  name,
  label,
  value,
  values,
  every,
  onChange,
}: {
  name: string;
  /** What a screen reader names it by, where no label wraps it. */
  label?: string;
  value: string;
  values: readonly (string | readonly [value: string, label: string])[];
  /** The first option's words: "every kind". */
  every: string;
  onChange: (value: string) => void;
}) {
  return (
    <select name={name} aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{every}</option>
      {values.map((v) => {
        const [id, text] = typeof v === 'string' ? [v, v] : v;
        return (
          <option key={id} value={id}>
            {text}
          </option>
        );
      })}
    </select>
  );
}
