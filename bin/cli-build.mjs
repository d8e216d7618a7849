/**
 * The `workbench` command as built JavaScript: engine/cli.ts and the backtest's worker entries, bundled by esbuild
 * into out-cli/ under the names the engine asks for (`new URL('./worker-entry.mjs', import.meta.url)`), as the
 * desktop build does for out/main. What the command ships (the demo, the built screens) it finds from the
 * workbench's folder, whatever its depth (engine/service/app-root.ts).
 *
 * The build leaves the list of the files it read, with their hash, in out-cli/sources.json. bin/workbench.mjs
 * checks it at every start (a hash of ~150 small files: milliseconds) and builds again when a source changed, so a
 * checkout, a pull or an edit never runs an old command and no step stands between `npm ci` and use. Plain
 * JavaScript: it runs before anything could compile TypeScript.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
export const CLI_DIR = join(ROOT, 'out-cli');
export const CLI_BIN = join(CLI_DIR, 'workbench.mjs');
const STAMP = join(CLI_DIR, 'sources.json');
/** This file is a source of the build too: a change to how it bundles builds again. */
const SELF = relative(ROOT, import.meta.filename);

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const BUNDLED = new Set(['@sinclair/typebox']);

/** What the command is made of, by the name each is written under. */
export const CLI_ENTRIES = {
  workbench: 'engine/cli.ts',
  'worker-entry': 'engine/simulate/worker.ts',
  'partition-worker-entry': 'engine/simulate/partition-worker.ts',
  'partition-child-entry': 'engine/simulate/partition-child.ts',
};

/**
 * esbuild's options for Node entries written as .mjs into outdir. Split into chunks: a module a command imports
 * when it runs (`await import(...)`) is a chunk of its own, loaded with its dependencies only by the commands
 * that use it, so `workbench --help` reads no DuckDB, fastify or engine.
 * @param {Record<string, string>} entryPoints
 * @param {string} outdir
 */
export function bundleOptions(entryPoints, outdir) {
  return {
    absWorkingDir: ROOT,
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    // Beside the entries: code that finds a file relative to itself (a worker entry, out/) finds it from any chunk.
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Dependencies load from node_modules (DuckDB's native binding among them), but for TypeBox: its hundreds of
    // small ES modules took a tenth of a second to resolve at each start; bundled, they are one read.
    external: Object.keys({ ...PACKAGE.dependencies, ...PACKAGE.devDependencies }).filter((p) => !BUNDLED.has(p)),
    logLevel: 'warning',
    write: false,
  };
}

/** @param {string[]} files paths relative to the root */
function hashOf(files) {
  const hash = createHash('sha256');
  for (const file of files) {
    const path = join(ROOT, file);
    hash.update(`${file}\0`);
    if (existsSync(path)) hash.update(readFileSync(path));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether out-cli/ holds a build of the sources as they are now. */
export function cliIsCurrent() {
  if (!existsSync(STAMP)) return false;
  try {
    const { files, hash } = JSON.parse(readFileSync(STAMP, 'utf8'));
    return hashOf(files) === hash;
  } catch {
    return false;
  }
}

/**
 * Writes each file whose bytes differ in one rename (a command beside this one may be starting from it), removes
 * what the build no longer makes, and leaves the stamp last, so a build cut off midway is built again.
 * @param {{ path: string, contents: Uint8Array }[]} outputFiles
 * @param {string} outdir
 */
export function writeBundle(outputFiles, outdir) {
  mkdirSync(outdir, { recursive: true });
  for (const file of outputFiles) {
    if (existsSync(file.path) && readFileSync(file.path).equals(file.contents)) continue;
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, file.contents);
    renameSync(partial, file.path);
  }
  const made = new Set(outputFiles.map((f) => f.path));
  for (const name of readdirSync(outdir))
    if (/^chunk-\w+\.mjs$/.test(name) && !made.has(join(outdir, name))) rmSync(join(outdir, name), { force: true });
}

/** Builds the command into out-cli/ (about half a second). Needs esbuild, a development dependency. */
export async function buildCli() {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error(
      `the workbench command is not built from these sources (${CLI_DIR}) and esbuild, which builds it, is not ` +
        'installed: run npm ci',
    );
  }
  const { outputFiles, metafile } = await esbuild.build({
    ...bundleOptions(CLI_ENTRIES, CLI_DIR),
    metafile: true,
  });
  writeBundle(outputFiles, CLI_DIR);
  const files = [
    ...Object.keys(metafile.inputs).filter((f) => !f.includes('node_modules/')),
    SELF,
    'package-lock.json',
  ].sort();
  const partial = `${STAMP}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify({ files, hash: hashOf(files) }));
  renameSync(partial, STAMP);
}

/** The built command's path, built first when missing or not built from the sources as they are. */
export async function currentCli() {
  if (!cliIsCurrent()) await buildCli();
  return CLI_BIN;
}

// `node bin/cli-build.mjs` (npm's prepare step, after `npm ci`) builds it ahead of the first start.
if (process.argv[1] === import.meta.filename) await currentCli();
