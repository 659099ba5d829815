#!/usr/bin/env node
// `npx crucible <tool> …`: the project's command line (package.json "bin"). npx runs it with the
// project's node_modules/.bin first on PATH, so `node` here is the pinned Node 24 (the `node`
// devDependency) whatever the system's is. Unlike `npm run`, it prints no banner of its own, so
// `--json` leaves stdout to the JSON document alone.
import { runApps } from './apps.ts';
import { runMcp } from './mcp.ts';
import { runNfts } from './nfts.ts';

const tools: Record<string, { summary: string; run: (argv: string[]) => Promise<number> }> = {
  apps: {
    summary: 'apps, their keys and account auth tokens (npx crucible apps --help)',
    run: runApps,
  },
  mcp: {
    summary: 'the MCP server over stdio, for a desktop agent (npx crucible mcp --help)',
    run: runMcp,
  },
  nfts: {
    summary: 'NFT data for operators: the spam reports callers sent (npx crucible nfts --help)',
    run: runNfts,
  },
};

const usage = `Usage: npx crucible <tool> [arguments]

Tools:
${Object.entries(tools)
  .map(([name, tool]) => `  ${name.padEnd(6)} ${tool.summary}`)
  .join('\n')}
`;

const [name, ...argv] = process.argv.slice(2);
if (name === undefined || name === '--help' || name === '-h') {
  process.stdout.write(usage);
} else if (Object.hasOwn(tools, name)) {
  process.exitCode = await tools[name]!.run(argv);
} else {
  process.stderr.write(`There is no tool "${name}".\n${usage}`);
  process.exitCode = 2;
}
