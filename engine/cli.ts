/**
 * The `workbench` command: the headless adapter over the application service. Only what every start needs is
 * imported here; each command imports the service, DuckDB, the server or the engine when it runs, so `--help` and
 * the light commands start at once (the build splits those imports into chunks of their own, bin/cli-build.mjs).
 */
import { Command, Option } from 'commander';
import type { Workbench } from './service/workbench.js';
import type { LoadOptions } from './cli/load.js';
import { formatLint, formatLogEntry } from './cli/format.js';
import { DEFAULT_CLIENT_ID, DEFAULT_TENANT } from './server/defaults.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appRoot } from './service/app-root.js';
import { formatSummary, formatSweep, styleDifferenceText } from './cli/backtest-format.js';
import { EXPORT_FORMATS, EXPORT_PARTS, type ExportFormat, type ExportPart } from './service/export-kinds.js';
import { parseDay } from './model/datetime.js';
import type { SettingsOverride } from './recommend/settings.js';
import { count, percent, whole } from '../common/format.js';

const program = new Command('workbench')
  .description('Replenishment Workbench: offline workspace, local API and backtests')
  .showHelpAfterError();

const workspaceOption = () =>
  new Option('-w, --workspace <dir>', 'workspace folder (created when missing)').makeOptionMandatory();

/** Opens the workspace for one command and always closes it, so the file is never left locked. */
async function withWorkbench<T>(dir: string, fn: (wb: Workbench) => Promise<T>): Promise<T> {
  const { Workbench } = await import('./service/workbench.js');
  const { oneRunRecommender } = await import('./service/recommender.js');
  // A command's process ends with it: its live run keeps nothing for a next one.
  const wb = await Workbench.open(dir, { recommender: oneRunRecommender });
  try {
    return await fn(wb);
  } finally {
    await wb.close();
  }
}

program
  .command('load')
  .description(
    'load API-shaped JSON files (one endpoint body per file) and CSV, Parquet or Arrow IPC files (one per level: ' +
      'items, skus, barcodes, …; mapped by their columns); folders load every such file in them',
  )
  .addOption(workspaceOption())
  .option(
    '-d, --dataset <name>',
    'endpoint of every file (default: from the file name, else from the body or the CSV columns)',
  )
  .option('--full-load', 'send as a full load (split over the files of each dataset where the spec allows it)')
  .option(
    '--map <file.json>',
    'CSV column mapping per file: {"skus.csv": {"level": "Items.skus", "columns": {"Colour": "colorId", ' +
      '"Qty": ["quantitySold", "quantityTransferred"], "Notes": null}, "dateFormat": "DD/MM/YYYY HH:mm", ' +
      '"decimalComma": true, "repeatedSaleFields": "first"}} (default: by header)',
  )
  .option('--only-if-all-pass', 'check every file first and load nothing unless all of them pass')
  .option(
    '--errors <file.csv>',
    'write every problem of a rejected file to this CSV (file, row, column, path, recordId, message), all of them',
  )
  .option('-q, --quiet', 'no progress output')
  .argument('<paths...>', 'JSON, CSV, Parquet (.parquet) or Arrow IPC (.arrow, .feather) files, or folders')
  .action(async (paths: string[], opts: LoadOptions & { workspace: string }) => {
    const { formatReport, loadFiles } = await import('./cli/load.js');
    const report = await withWorkbench(opts.workspace, (wb) => loadFiles(wb, paths, opts));
    console.log(formatReport(report));
    if (opts.errors !== undefined) {
      const { writeErrorsFile } = await import('./cli/errors-file.js');
      console.log(writeErrorsFile(opts.errors, report));
    }
    if (report.rejected) process.exitCode = 1;
  });

program
  .command('info')
  .description('counts, date ranges and last writes per dataset')
  .addOption(workspaceOption())
  .option('--json', 'print JSON')
  .action(async (opts: { workspace: string; json?: boolean }) => {
    // The store alone: the counts need neither the service nor the engine, and load in a fraction of the time.
    const { Workspace } = await import('./store/workspace.js');
    const { workspaceSummary } = await import('./service/summary.js');
    const ws = await Workspace.open(opts.workspace);
    const summary = await workspaceSummary(ws).finally(() => ws.close());
    if (opts.json) return console.log(JSON.stringify(summary, null, 2));
    for (const s of summary.filter((x) => x.live || x.deleted || x.stagedFullLoad)) {
      const range = s.from ? ` ${s.from.slice(0, 10)} … ${s.to!.slice(0, 10)}` : '';
      const staged = s.stagedFullLoad ? ` (split full load open: ${s.stagedFullLoad.calls} calls)` : '';
      console.log(
        `${s.dataset.padEnd(28)} ${String(s.live).padStart(9)} live ` +
          `${String(s.deleted).padStart(7)} deleted${range}${staged}`,
      );
    }
  });

function dayFlag(text: string, flag: string): number {
  const day = parseDay(text);
  if (day === undefined) throw new Error(`${flag} must be a date YYYY-MM-DD, got "${text}"`);
  return day;
}

/** A --settings file, checked as the API checks a scenario (its schema loads only for a command given one). */
async function settingsFile(file: string | undefined): Promise<SettingsOverride | undefined> {
  if (file === undefined) return undefined;
  const { parseSettingsOverride } = await import('./recommend/settings-schema.js');
  return parseSettingsOverride(JSON.parse(readFileSync(file, 'utf8')));
}

const integer = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v)) throw new Error(`${name} must be a whole number, got "${v}"`);
  return Number(v);
};

program
  .command('recommend')
  .description('run the recommendation engine on the workspace and show its proposals')
  .addOption(workspaceOption())
  .option('--as-of <date>', 'decision day YYYY-MM-DD (default: today, or the day after the latest data)')
  .option('--settings <file>', 'scenario settings (JSON) for this run')
  .option('--scenario <name>', 'a scenario kept in the workspace (default: "default")')
  .option('--save-scenario <name>', 'keep the --settings file in the workspace under this name')
  .option('--approve', 'approve the proposals as one batch')
  .option('--description <text>', 'description of the approval batch')
  .option('--dispatch <date>', 'planned dispatch date YYYY-MM-DD of the approval batch')
  .option('-n, --show <n>', 'proposals to print', integer('--show'), 20)
  .option('--json', 'print JSON')
  .action(
    async (opts: {
      workspace: string;
      asOf?: string;
      settings?: string;
      scenario?: string;
      saveScenario?: string;
      approve?: boolean;
      description?: string;
      dispatch?: string;
      show: number;
      json?: boolean;
    }) => {
      const asOfDay = opts.asOf === undefined ? undefined : dayFlag(opts.asOf, '--as-of');
      const scenario = await settingsFile(opts.settings);
      if (opts.saveScenario && !scenario) throw new Error('--save-scenario needs --settings FILE');
      await withWorkbench(opts.workspace, async (wb) => {
        if (opts.saveScenario) await wb.setScenario(scenario, opts.saveScenario);
        const summary = await wb.runRecommendations({ asOfDay, scenario, scenarioName: opts.scenario });
        const approval =
          opts.approve && summary.proposals > 0
            ? await wb.approveTransfers({ description: opts.description, plannedDispatchDate: opts.dispatch })
            : undefined;
        const { proposals } = await wb.proposals({ offset: 0, limit: opts.show, approved: approval ? true : false });
        if (opts.json) return console.log(JSON.stringify({ summary, approval, proposals }, null, 2));
        console.log(`run ${summary.runId} as of ${summary.asOf.slice(0, 10)}: ${count(summary.proposals, 'proposal')}`);
        for (const [type, x] of Object.entries(summary.byType))
          console.log(
            `  ${type.padEnd(20)} ${count(x.transfers, 'line').padStart(12)} ` + count(x.units, 'unit').padStart(14),
          );
        for (const p of proposals)
          console.log(
            `${p.transferType.padEnd(20)} ${p.fromLocationId} → ${p.toLocationId} ` +
              `${p.skuId} × ${p.quantity}: ${p.reason}`,
          );
        if (summary.proposals > proposals.length)
          console.log(`… ${whole(summary.proposals - proposals.length)} more (GET /_workbench/transfers)`);
        if (approval)
          console.log(
            `approved ${approval.approved} as batch ${approval.approvalBatchId} at ${approval.confirmedDateTime}`,
          );
      });
    },
  );

program
  .command('backtest')
  .description('replay a period day by day with the engine and compare simulated with actual stock-outs')
  .addOption(workspaceOption())
  .requiredOption('--from <date>', 'first day YYYY-MM-DD')
  .requiredOption('--to <date>', 'last day YYYY-MM-DD')
  .option('--settings <file>', 'scenario settings (JSON) for this run')
  .option('--scenario <name>', 'a scenario kept in the workspace (default: "default")')
  .option(
    '--review-days <n>',
    'days between reviews (default: the review period of the settings)',
    integer('--review-days'),
  )
  .option('--out <file>', 'write {run, settings, summary, daily} as JSON')
  .action(
    async (opts: {
      workspace: string;
      from: string;
      to: string;
      settings?: string;
      scenario?: string;
      reviewDays?: number;
      out?: string;
    }) => {
      const fromDay = dayFlag(opts.from, '--from');
      const toDay = dayFlag(opts.to, '--to');
      const scenario = await settingsFile(opts.settings);
      const { progressBar } = await import('./cli/progress.js');
      await withWorkbench(opts.workspace, async (wb) => {
        const tty = process.stderr.isTTY;
        const bar = progressBar('{bar} {percentage}% | day {value}/{total} | ETA {eta}s', tty);
        let lastTenth = 0;
        let cancelled = false;
        const onSignal = () => (cancelled = true);
        process.once('SIGINT', onSignal);
        const { run, report, settings } = await wb.runBacktest({
          fromDay,
          toDay,
          scenario,
          scenarioName: opts.scenario,
          reviewEveryDays: opts.reviewDays,
          isCancelled: () => cancelled,
          onProgress: (done, total) => {
            bar?.update(done, total);
            if (!tty && Math.floor((done / total) * 10) > lastTenth) {
              lastTenth = Math.floor((done / total) * 10);
              console.error(`day ${done}/${total}`);
            }
          },
        });
        process.off('SIGINT', onSignal);
        bar?.stop();
        console.log(
          `backtest ${run.runId}, ${run.from} … ${run.to}` +
            (run.status === 'cancelled' ? ` (cancelled after ${report.daysDone} days)` : '') +
            `, ${(run.durationMs / 1000).toFixed(1)} s`,
        );
        console.log(
          formatSummary(report.summary.simulated, report.summary.actual, {
            world: report.summary.world,
            currency: await wb.currency(),
          }),
        );
        if (opts.out) {
          writeFileSync(
            opts.out,
            JSON.stringify({ run, settings, summary: report.summary, daily: report.daily }, null, 2),
          );
          console.log(`written to ${opts.out}`);
        }
      });
    },
  );

program
  .command('backtests')
  .description('the backtest runs kept in the workspace')
  .addOption(workspaceOption())
  .action(async (opts: { workspace: string }) => {
    const runs = await withWorkbench(opts.workspace, (wb) => wb.backtests());
    const rate = (v: number | null) => (v === null ? '—' : percent(v));
    for (const r of runs) {
      console.log(
        `${r.runId}  ${r.from} … ${r.to}  ${r.status}  scenario ${r.scenario ?? '(file)'}  ` +
          `in-stock ${rate(r.summary.simulated.inStockRate)} vs ${rate(r.summary.actual.inStockRate)} actual, ` +
          `fill rate ${rate(r.summary.simulated.fillRate)} vs ${rate(r.summary.actual.fillRate)}`,
      );
    }
  });

program
  .command('compare')
  .description('two backtest runs side by side')
  .addOption(workspaceOption())
  .argument('<a>', 'run id')
  .argument('<b>', 'run id')
  .action(async (a: string, b: string, opts: { workspace: string }) => {
    const [c, currency] = await withWorkbench(opts.workspace, async (wb) =>
      Promise.all([wb.compareBacktests(a, b), wb.currency()]),
    );
    console.log(
      `a = ${c.a.run.runId} (${c.a.run.scenario ?? 'file'}), b = ${c.b.run.runId} (${c.b.run.scenario ?? 'file'}); ` +
        `the "actual" column is a's`,
    );
    console.log(
      formatSummary(c.b.simulated, c.a.simulated, { currency })
        .replace('simulated', '        b')
        .replace('    actual', '         a'),
    );
    console.log(`\n${styleDifferenceText(c.styles)}`);
  });

program
  .command('sweep')
  .description(
    'run a grid of settings as backtests over one period and show each point: lost sales against store stock, ' +
      'the efficient frontier marked',
  )
  .addOption(workspaceOption())
  .requiredOption('--from <date>', 'first day YYYY-MM-DD')
  .requiredOption('--to <date>', 'last day YYYY-MM-DD')
  .option(
    '--vary <setting=values>',
    'a setting and its values, e.g. serviceLevel=0.85,0.9 or redistribution.tripCost=20,40 (repeat for a grid)',
    (v: string, all: string[] = []) => [...all, v],
  )
  .option('--scenario <name>', 'the scenario every point starts from (default: "default")')
  .option('--out <file>', 'write the sweep, its points and the frontier as JSON')
  .option('-q, --quiet', 'no progress output')
  .action(
    async (opts: {
      workspace: string;
      from: string;
      to: string;
      vary?: string[];
      scenario?: string;
      out?: string;
      quiet?: boolean;
    }) => {
      const fromDay = dayFlag(opts.from, '--from');
      const toDay = dayFlag(opts.to, '--to');
      const { parseVary } = await import('./service/sweep-grid.js');
      const axes = (opts.vary ?? []).map(parseVary);
      await withWorkbench(opts.workspace, async (wb) => {
        let cancelled = false;
        const onSignal = () => (cancelled = true);
        process.once('SIGINT', onSignal);
        let lastTenth = 0;
        const sweep = await wb.runSweep({
          fromDay,
          toDay,
          axes,
          scenarioName: opts.scenario,
          isCancelled: () => cancelled,
          onProgress: (done, total) => {
            if (opts.quiet || Math.floor((done / total) * 10) <= lastTenth) return;
            lastTenth = Math.floor((done / total) * 10);
            console.error(`${lastTenth * 10}% (day ${done} of ${total} over every point)`);
          },
        });
        process.off('SIGINT', onSignal);
        console.log(formatSweep(sweep));
        if (opts.out) writeFileSync(opts.out, `${JSON.stringify(sweep, null, 2)}\n`);
      });
    },
  );

program
  .command('export')
  .description('write part of a backtest run to CSV or Parquet')
  .addOption(workspaceOption())
  .argument('<run>', 'run id')
  .argument('<file>', 'output file')
  .addOption(new Option('--part <part>', 'what to write').choices(EXPORT_PARTS).default('daily'))
  .addOption(
    new Option('--format <format>', 'file format (arrow: Arrow IPC, Feather v2)')
      .choices(EXPORT_FORMATS)
      .default('csv'),
  )
  .action(async (run: string, file: string, opts: { workspace: string; part: ExportPart; format: ExportFormat }) => {
    const written = await withWorkbench(opts.workspace, (wb) => wb.exportBacktest(run, opts.part, file, opts.format));
    console.log(`written ${opts.part} of ${run} to ${written}`);
  });

program
  .command('serve')
  .description("serve the service's API on a workspace, for integration rehearsal")
  .addOption(workspaceOption())
  .option('-p, --port <port>', 'port (0: any free port)', integer('--port'), 8080)
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .option('--tenant <tenant>', 'tenant code clients send as X-Tenant', DEFAULT_TENANT)
  .option('--client-id <id>', 'OAuth2 client id', DEFAULT_CLIENT_ID)
  .option('--client-secret <secret>', 'OAuth2 client secret (default: generated once and kept in the workspace)')
  .option('--auto-approve', "approve each run's proposals at once")
  .action(
    async (opts: {
      workspace: string;
      port: number;
      host: string;
      tenant: string;
      clientId: string;
      clientSecret?: string;
      autoApprove?: boolean;
    }) => {
      const { startServer } = await import('./server/serve.js');
      const { promptedTokenRequestCurl, tokenRequestCurl } = await import('./server/auth.js');
      const server = await startServer(opts);
      const { info } = server;
      serveUntilSignalled({ dir: server.workbench.dir, url: server.info.url, stop: server.stop }, [
        `tenant ${info.tenant}, client id ${info.clientId}` +
          (server.secretGenerated ? `, client secret ${info.clientSecret} (kept in the workspace)` : ''),
        // The line runs as pasted. A secret generated here is printed above, so the line holds it; one the user
        // chose is never printed (it would stay in terminal logs), so the line asks for it.
        `try: ${server.secretGenerated ? tokenRequestCurl(info.url, info) : promptedTokenRequestCurl(info.url, info)}`,
      ]);
    },
  );

/** The built renderer browser mode serves; refused, with the command that builds it, when it is not built. */
function builtUi(): string {
  const uiRoot = join(appRoot(import.meta.url), 'out', 'renderer');
  if (!existsSync(`${uiRoot}/index.html`))
    throw new Error(`the UI is not built (${uiRoot}): run npm run build first, or npm run web`);
  return uiRoot;
}

/** Says where a started server is (`listening on` last: scripts wait for it) and stops it cleanly on a signal. */
function serveUntilSignalled(server: { dir: string; url: string; stop(): Promise<void> }, lines: string[]): void {
  const stop = async () => {
    await server.stop();
    process.exit(0);
  };
  // Before the line a script waits for: a signal sent the moment it reads it finds the clean stop in place.
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  console.log(`workspace ${server.dir}`);
  for (const line of lines) console.log(line);
  console.log(`listening on ${server.url}`);
}

program
  .command('web')
  .description(
    'browser mode: the workbench UI and the local API, served to a browser (build the UI first: npm run build)',
  )
  .option('-w, --workspace <dir>', 'workspace folder (created when missing)', '.workspaces/default')
  .option('--home <dir>', 'folder where the UI creates and lists workspaces (default: the one holding --workspace)')
  .option('-p, --port <port>', 'port (0: any free port)', integer('--port'), 5178)
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .action(async (opts: { workspace: string; home?: string; port: number; host: string }) => {
    const uiRoot = builtUi();
    const { startWeb } = await import('./server/web.js');
    const web = await startWeb({ ...opts, uiRoot });
    serveUntilSignalled({ dir: web.desk.workbench.dir, url: web.url, stop: web.stop }, [`open ${web.openUrl}`]);
  });

program
  .command('demo')
  .description(
    'the demo retailer in a workspace of its own: loaded when missing, a backtest over its history run once, ' +
      'served to a browser (build the UI first: npm run demo does both)',
  )
  .option('-w, --workspace <dir>', 'workspace folder (created when missing)', '.workspaces/demo')
  .option('-p, --port <port>', 'port (0: any free port)', integer('--port'), 5178)
  .option('--host <host>', 'address to bind', '127.0.0.1')
  .action(async (opts: { workspace: string; port: number; host: string }) => {
    const uiRoot = builtUi();
    const { prepareDemo } = await import('./cli/demo.js');
    const { startWeb } = await import('./server/web.js');
    const ready = await withWorkbench(opts.workspace, prepareDemo);
    if (ready.loadedRecords !== undefined) console.log(`loaded the demo: ${count(ready.loadedRecords, 'record')}`);
    if (ready.ranPeriod) console.log(`backtest ${ready.runId} over ${ready.ranPeriod}`);
    const web = await startWeb({ ...opts, uiRoot });
    // The address opens on the run: its KPIs, charts and breakdown.
    const view = `&view=${encodeURIComponent(`/backtest/${ready.runId}`)}`;
    serveUntilSignalled({ dir: web.desk.workbench.dir, url: web.url, stop: web.stop }, [`open ${web.openUrl}${view}`]);
  });

program
  .command('log')
  .description('the request log of a workspace (through its running server, if one owns it)')
  .addOption(workspaceOption())
  .option('-n, --limit <n>', 'entries to show', integer('--limit'), 50)
  .option('-f, --follow', 'keep printing new entries')
  .option('--json', 'print JSON lines')
  .action(async (opts: { workspace: string; limit: number; follow?: boolean; json?: boolean }) => {
    const { openReader } = await import('./cli/remote.js');
    const reader = await openReader(opts.workspace);
    try {
      const print = (e: Awaited<ReturnType<typeof reader.log>>[number]) =>
        console.log(opts.json ? JSON.stringify(e) : formatLogEntry(e));
      let entries = await reader.log({ limit: opts.limit });
      entries.forEach(print);
      let last = entries.length ? entries[entries.length - 1].id : 0;
      while (opts.follow) {
        await new Promise((r) => setTimeout(r, 1000));
        entries = await reader.log({ afterId: last, limit: 1000 });
        entries.forEach(print);
        if (entries.length) last = entries[entries.length - 1].id;
      }
    } finally {
      await reader.close();
    }
  });

program
  .command('lint')
  .description("the feed lint: the spec's pitfalls found in the workspace")
  .addOption(workspaceOption())
  .option('--json', 'print JSON')
  .action(async (opts: { workspace: string; json?: boolean }) => {
    const { openReader } = await import('./cli/remote.js');
    const reader = await openReader(opts.workspace);
    try {
      const report = await reader.lint();
      console.log(opts.json ? JSON.stringify(report, null, 2) : formatLint(report));
    } finally {
      await reader.close();
    }
  });

program
  .command('openapi')
  .description('print the OpenAPI 3.1 document of the local API')
  .option('--url <url>', 'the base URL it names (where `workbench serve` listens)', 'http://127.0.0.1:8080')
  .action(async (opts: { url: string }) => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { buildServer, openapiDocument } = await import('./server/app.js');
    const dir = mkdtempSync(join(tmpdir(), 'workbench-openapi-'));
    try {
      await withWorkbench(dir, async (wb) => {
        const app = await buildServer({
          workbench: wb,
          tenant: DEFAULT_TENANT,
          clientId: DEFAULT_CLIENT_ID,
          clientSecret: 'unused',
        });
        await app.ready();
        console.log(JSON.stringify(openapiDocument(app, opts.url), null, 2));
        await app.close();
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

try {
  await program.parseAsync(process.argv);
} catch (e) {
  console.error(`workbench: ${(e as Error).message}`);
  process.exitCode = 2;
}
