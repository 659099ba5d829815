// `npx crucible nfts <command>`: the operators' CLI for NFT data, over the database that
// DATABASE_URL or DATABASE_PATH names. `spam-reports` lists what callers of reportSpam said, most
// reporters first (docs/nft-data.md#spam-reports): reports change no answer by themselves, the
// operator reads them and acts on the spam rules. Exit codes: 0 done, 1 failed, 2 bad input. With
// --json, stdout holds the JSON document alone.
import { parseArgs } from 'node:util';
import { redactUrls } from '../src/log/redact.ts';

const USAGE = `Usage: npx crucible nfts <command> [options]

Commands:
  spam-reports [--network <id>]    the contracts callers reported as spam (reportSpam), most
                                   reporters first: reporters, reports, first and last, the
                                   latest reporters (app:<id>, or demo:<client address>)

Options:
  --json   print one JSON document
  --help   print this help

A report never changes an answer by itself: isSpam comes from the spam rules (docs/nft-data.md).
`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (--help shows the options).`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (command !== 'spam-reports')
    throw new UsageError(command ? `There is no command "${command}": use spam-reports (--help shows it).` : 'Name a command: spam-reports (--help shows it).');
  if (rest.length > 0) throw new UsageError(`spam-reports takes no arguments (got ${rest.join(' ')}).`);

  // Loaded once the arguments are known good: --help and usage errors answer without them.
  const [{ databaseConfig }, { openDatabase }, { listSpamReports }] = await Promise.all([
    import('../src/config/config.ts'),
    import('../src/db/open.ts'),
    import('../src/nfts/contracts/spam-reports.ts'),
  ]);
  const database = await openDatabase(databaseConfig());
  try {
    const reports = await listSpamReports(database.db, values.network === undefined ? {} : { network: values.network });
    if (values.json) {
      const json = reports.map((report) => ({
        ...report,
        firstReportedAt: new Date(report.firstReportedAt).toISOString(),
        lastReportedAt: new Date(report.lastReportedAt).toISOString(),
      }));
      process.stdout.write(`${JSON.stringify({ reports: json }, null, 2)}\n`);
    } else if (reports.length === 0) process.stdout.write('No spam reports.\n');
    else
      for (const report of reports)
        process.stdout.write(
          `${report.network} ${report.contract}: ${report.reporters} reporter(s), ${report.reports} report(s), ` +
            `${new Date(report.firstReportedAt).toISOString()} to ${new Date(report.lastReportedAt).toISOString()}; latest: ${report.latestReporters.join(', ')}\n`,
        );
    return 0;
  } finally {
    await database.close();
  }
}

const options = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  network: { type: 'string' },
} as const;

/** Runs one command of `argv` (the arguments after `nfts`); resolves with the exit code. */
export async function runNfts(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof UsageError ? error.message : redactUrls(error instanceof Error ? error.message : String(error))}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

if (import.meta.main) process.exitCode = await runNfts(process.argv.slice(2));
