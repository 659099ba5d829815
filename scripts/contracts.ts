// `npm run contracts`: compiles every contracts/*.sol with the solc npm package (standard JSON) and
// writes contracts/artifacts/<Contract>.json = { contractName, abi, bytecode, deployedBytecode }.
// The settings are fixed and the metadata hash and CBOR trailer are left out, so the bytecode depends
// on the sources alone (not on file paths or the machine): the committed artifacts are what a
// recompile gives, which a test checks. `--out <dir>` writes elsewhere (that test).
import { readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join, normalize, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import solc from 'solc';

const root = resolve(import.meta.dirname, '..');
const contractsDir = join(root, 'contracts');
const nodeModules = join(root, 'node_modules');

interface SolcMessage {
  severity: 'error' | 'warning' | 'info';
  formattedMessage: string;
}

interface SolcContract {
  abi: unknown[];
  evm: { bytecode: { object: string }; deployedBytecode: { object: string } };
}

interface SolcOutput {
  errors?: SolcMessage[];
  contracts?: Record<string, Record<string, SolcContract>>;
}

/** Imports such as `@openzeppelin/contracts/...` are read from node_modules, and nothing outside it. */
function findImport(path: string): { contents: string } | { error: string } {
  const file = normalize(join(nodeModules, path));
  if (!file.startsWith(nodeModules + sep)) return { error: `import outside node_modules: ${path}` };
  try {
    return { contents: readFileSync(file, 'utf8') };
  } catch {
    return { error: `not found in node_modules: ${path}` };
  }
}

async function compile(): Promise<Map<string, string>> {
  const files = (await readdir(contractsDir)).filter((name) => name.endsWith('.sol')).sort();
  const sources = Object.fromEntries(await Promise.all(files.map(async (name) => [name, { content: await readFile(join(contractsDir, name), 'utf8') }])));
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: Object.fromEntries(files.map((name) => [name, { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] }])),
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport })) as SolcOutput;
  const messages = output.errors ?? [];
  for (const message of messages) if (message.severity !== 'info') process.stderr.write(message.formattedMessage);
  if (messages.some((message) => message.severity === 'error')) throw new Error('solc reported errors (above)');

  const artifacts = new Map<string, string>();
  for (const file of files) {
    for (const [contractName, contract] of Object.entries(output.contracts?.[file] ?? {})) {
      const { bytecode, deployedBytecode } = contract.evm;
      // Abstract contracts and interfaces have no code: nothing to deploy.
      if (!bytecode.object) continue;
      if (artifacts.has(contractName)) throw new Error(`two contracts named ${contractName}`);
      if (bytecode.object.includes('__$')) throw new Error(`${contractName} needs linked libraries, which the world does not deploy`);
      const artifact = { contractName, abi: contract.abi, bytecode: `0x${bytecode.object}`, deployedBytecode: `0x${deployedBytecode.object}` };
      artifacts.set(contractName, `${JSON.stringify(artifact, null, 2)}\n`);
    }
  }
  return artifacts;
}

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const outDir = resolve(values.out ?? join(contractsDir, 'artifacts'));
const artifacts = await compile();
await mkdir(outDir, { recursive: true });
// An artifact whose contract is gone is removed, so the directory is exactly the compiled set.
for (const name of await readdir(outDir)) {
  if (name.endsWith('.json') && !artifacts.has(name.slice(0, -'.json'.length))) await rm(join(outDir, name));
}
for (const [name, text] of artifacts) await writeFile(join(outDir, `${name}.json`), text);
console.log(`solc ${solc.version()}: ${artifacts.size} artifacts in ${outDir}`);
