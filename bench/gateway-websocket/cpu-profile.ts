import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// Where a server's CPU time went, from the profile `node --cpu-prof` writes when the process
// exits: self time by area of code (a file of the project, a package, a Node module, native code,
// the garbage collector) and by function, and the total time with callees of the project's and
// ws's functions, counted over the samples taken within a window of the machine's monotonic clock
// (V8 stamps samples in µs of CLOCK_MONOTONIC, as process.hrtime does in every process).

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface TimeShare {
  name: string;
  ms: number;
  /** Of the busy time. */
  share: number;
}

export interface ProfileSummary {
  /** Sampled time in the window that was not idle. */
  busyMs: number;
  /** False when the window missed the profile and every sample was counted. */
  windowed: boolean;
  byArea: TimeShare[];
  bySelf: TimeShare[];
  /** The project's and ws's functions, with the time of what they call. */
  byTotal: TimeShare[];
  /** Per name given in `stages`: the share of the busy time spent in (or under) the functions whose labels start with one of its prefixes. */
  stages: Record<string, number>;
}

/** Reads the one profile `--cpu-prof-dir=<dir>` holds. */
export async function readCpuProfile(dir: string): Promise<CpuProfile> {
  const files = (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile'));
  if (files.length !== 1) throw new Error(`expected one .cpuprofile in ${dir}, found ${files.length}`);
  return JSON.parse(await readFile(join(dir, files[0]!), 'utf8')) as CpuProfile;
}

/**
 * `root` is the project's directory, cut from file URLs; `stages` names functions by the starts of
 * their labels (`send (ws/lib/websocket.js`) to report the time spent in them with their callees.
 */
export function summarizeCpuProfile(
  profile: CpuProfile,
  windowMicros: [number, number],
  root: string,
  stages: Record<string, readonly string[]> = {},
  top = 12,
): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const where = (frame: CallFrame) => frame.url.replace(`file://${root}/`, '').replace(/^(.*\/)?node_modules\//, '');
  const label = (frame: CallFrame) => (frame.url ? `${frame.functionName || '(anonymous)'} (${where(frame)}:${frame.lineNumber + 1})` : frame.functionName);
  const areaOf = (frame: CallFrame): string => {
    if (frame.functionName === '(garbage collector)') return 'garbage collection';
    if (!frame.url) return 'native code and V8 built-ins';
    const path = where(frame);
    if (frame.url.includes('/node_modules/')) return `package ${path.split('/')[0]}`;
    return path.startsWith('node:') ? path.replace(/\/[^/]*$/, '/…') : path;
  };
  const counted = (frame: CallFrame) => frame.url.startsWith(`file://${root}/src/`) || frame.url.includes('/node_modules/ws/');

  const windowed = profile.startTime < windowMicros[1] && profile.endTime > windowMicros[0];
  const [from, to] = windowed ? windowMicros : [profile.startTime, profile.endTime];
  const self = new Map<string, number>();
  const areas = new Map<string, number>();
  const totals = new Map<string, number>();
  const staged = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
  let busy = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    // A sample stands for the time until the next one.
    const micros = profile.timeDeltas[i + 1] ?? 0;
    if (at < from || at > to) continue;
    const node = byId.get(profile.samples[i]!)!;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += micros;
    add(self, label(node.callFrame), micros);
    add(areas, areaOf(node.callFrame), micros);
    const onStack = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const frame = byId.get(id)!.callFrame;
      if (counted(frame)) onStack.add(label(frame));
    }
    for (const name of onStack) add(totals, name, micros);
    for (const [stage, prefixes] of Object.entries(stages)) {
      if ([...onStack].some((name) => prefixes.some((prefix) => name.startsWith(prefix)))) add(staged, stage, micros);
    }
  }
  const ranked = (map: Map<string, number>): TimeShare[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, micros]) => ({ name, ms: micros / 1000, share: busy ? micros / busy : 0 }));
  const stageShares = Object.fromEntries(Object.keys(stages).map((stage) => [stage, busy ? (staged.get(stage) ?? 0) / busy : 0]));
  return { busyMs: busy / 1000, windowed, byArea: ranked(areas), bySelf: ranked(self), byTotal: ranked(totals), stages: stageShares };
}
