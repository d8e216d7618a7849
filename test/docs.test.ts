/**
 * The README's admin API list and the admin routes table of docs/design.md (§2.3) are what an integrator reads
 * before the OpenAPI document: they name the sweep routes of the route table and the base64 form of a picked file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepRoutes } from '../engine/server/admin/sweeps.js';

const read = (file: string) => readFileSync(join(process.cwd(), file), 'utf8');
/** The text from `start` to `end`, its line breaks and indents as single spaces. */
function section(text: string, start: string, end: string): string {
  const at = text.indexOf(start);
  expect(at, start).toBeGreaterThanOrEqual(0);
  const to = text.indexOf(end, at + start.length);
  return text.slice(at, to < 0 ? undefined : to).replace(/\s+/g, ' ');
}
/** `POST /sweeps/:sweepId/points/:point/scenario` as the documents write it: `POST sweeps/{sweepId}/points/…`. */
const written = (key: string) => key.replace(' /', ' ').replace(/:(\w+)/g, '{$1}');

describe('the admin API in the documents', () => {
  const readme = section(read('README.md'), '- the admin API under `/_workbench/`', '\n\n');
  const design = section(read('docs/design.md'), '### 2.3 The admin API', '\n## 3.');

  it('names every sweep route in the README and in the design notes', () => {
    const keys = Object.keys(sweepRoutes);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(readme, `README: ${key}`).toContain(written(key));
      expect(design, `design.md: ${key}`).toContain(written(key));
    }
  });

  it('gives a binary file as {name, base64} beside {name, text}', () => {
    for (const text of [readme, design]) {
      expect(text).toContain('{name, text}');
      expect(text).toMatch(/`\{name, base64\}`[^.]*Parquet[^.]*Arrow IPC[^.]*not UTF-8/);
    }
  });
});
