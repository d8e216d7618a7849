/** A workspace put back as an earlier release left it, for the migrations after to be tested on. */

/**
 * Before migration 13 a run's transfers were a table of text: the rows the view shows become that table again, and
 * the tables of numbers and the view go.
 */
export async function transfersAsText(run: (sql: string) => Promise<unknown>): Promise<void> {
  await run('CREATE TABLE text_rows AS SELECT * FROM backtest_transfers');
  await run('DROP VIEW backtest_transfers');
  for (const table of ['backtest_transfer_lines', 'backtest_route_ids', 'backtest_text_transfers'])
    await run(`DROP TABLE ${table}`);
  await run('ALTER TABLE text_rows RENAME TO backtest_transfers');
}
