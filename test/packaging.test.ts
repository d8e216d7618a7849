/**
 * The packaged app (electron-builder): its configuration is one electron-builder accepts, and DuckDB's native
 * files are unpacked from the asar, since a native library cannot be loaded from inside an archive. Packaging
 * itself needs Electron's binaries, which this machine cannot download; the configuration is checked here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, matchesGlob, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const require = createRequire(import.meta.url);
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, options: null): Promise<unknown>;
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

/** The files DuckDB's binding loads on this machine: the addon and the library beside it. */
function duckdbNativeFiles(): string[] {
  const dir = join(ROOT, 'node_modules', '@duckdb');
  return readdirSync(dir)
    .filter((d) => d.startsWith('node-bindings-'))
    .flatMap((d) =>
      readdirSync(join(dir, d))
        .filter((f) => /\.(node|so|dylib|dll)$/.test(f))
        .map((f) => relative(ROOT, join(dir, d, f))),
    );
}

describe('packaging', () => {
  it("is configured as electron-builder accepts, with DuckDB's native files outside the asar", async () => {
    await validateConfiguration(
      await getConfig(ROOT, join(ROOT, 'electron-builder.json'), null),
      new DebugLogger(false),
    );
    const config = JSON.parse(readFileSync(join(ROOT, 'electron-builder.json'), 'utf8')) as {
      asar: boolean;
      asarUnpack: string[];
      files: string[];
    };
    expect(config.asar).toBe(true);

    const native = duckdbNativeFiles();
    expect(native.some((f) => f.endsWith('duckdb.node'))).toBe(true);
    expect(native.some((f) => /libduckdb\.(so|dylib|dll)$/.test(f))).toBe(true);
    for (const file of native)
      expect(
        config.asarUnpack.some((g) => matchesGlob(file, g)),
        file,
      ).toBe(true);
    // The rest stays packed: nothing but the native bindings is unpacked.
    for (const packed of [
      'node_modules/@duckdb/node-api/lib/index.js',
      'node_modules/fastify/fastify.js',
      'out/main/index.js',
    ]) {
      expect(
        config.asarUnpack.some((g) => matchesGlob(packed, g)),
        packed,
      ).toBe(false);
    }
    // The app is the build: main (with the backtest's workers), preload and renderer; no source maps.
    for (const built of [
      'out/main/index.js',
      'out/main/worker-entry.mjs',
      'out/preload/preload.cjs',
      'out/renderer/index.html',
    ]) {
      expect(
        config.files.some((g) => matchesGlob(built, g)),
        built,
      ).toBe(true);
    }
    expect(config.files).toContain('!**/*.map');
  });
});
