/** The `workbench` command: the headless adapter over the application service. */
import { Command, Option } from 'commander';
import { Workbench } from './service/workbench.js';
import { formatReport, loadFiles } from './cli/load.js';

const program = new Command('workbench').description('Replenishment Workbench: offline workspace, local API and backtests').showHelpAfterError();

const workspaceOption = () => new Option('-w, --workspace <dir>', 'workspace folder (created when missing)').makeOptionMandatory();

/** Opens the workspace for one command and always closes it, so the file is never left locked. */
async function withWorkbench<T>(dir: string, fn: (wb: Workbench) => Promise<T>): Promise<T> {
  const wb = await Workbench.open(dir);
  try {
    return await fn(wb);
  } finally {
    await wb.close();
  }
}

program
  .command('load')
  .description('load API-shaped JSON files (one endpoint body per file; folders load every .json in them)')
  .addOption(workspaceOption())
  .option('-d, --dataset <name>', 'endpoint of every file (default: from the file name, else from the body)')
  .option('--full-load', 'send as a full load (split over the files of each dataset where the spec allows it)')
  .option('-q, --quiet', 'no progress output')
  .argument('<paths...>', 'JSON files or folders')
  .action(async (paths: string[], opts: { workspace: string; dataset?: string; fullLoad?: boolean; quiet?: boolean }) => {
    const report = await withWorkbench(opts.workspace, (wb) => loadFiles(wb, paths, opts));
    console.log(formatReport(report));
    if (report.rejected) process.exitCode = 1;
  });

program
  .command('info')
  .description('counts, date ranges and last writes per dataset')
  .addOption(workspaceOption())
  .option('--json', 'print JSON')
  .action(async (opts: { workspace: string; json?: boolean }) => {
    const summary = await withWorkbench(opts.workspace, (wb) => wb.summary());
    if (opts.json) return console.log(JSON.stringify(summary, null, 2));
    for (const s of summary.filter((x) => x.live || x.deleted || x.stagedFullLoad)) {
      const range = s.from ? ` ${s.from.slice(0, 10)} … ${s.to!.slice(0, 10)}` : '';
      const staged = s.stagedFullLoad ? ` (split full load open: ${s.stagedFullLoad.calls} calls)` : '';
      console.log(`${s.dataset.padEnd(28)} ${String(s.live).padStart(9)} live ${String(s.deleted).padStart(7)} deleted${range}${staged}`);
    }
  });

try {
  await program.parseAsync(process.argv);
} catch (e) {
  console.error(`workbench: ${(e as Error).message}`);
  process.exitCode = 2;
}
