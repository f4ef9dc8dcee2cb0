import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './harness.ts';

/*
 * `node --import tsx bench/profile.ts <file.cpuprofile|folder> [--top N]`: where a CPU
 * profile written by `npm run bench -- --profile` spends its time: self time by function,
 * by package or source folder, and the total (self + callees) time of Quire's own functions.
 */

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
  samples: number[];
  timeDeltas: number[];
}

function where(url: string): string {
  const file = url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = file.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (file.startsWith('node:') || (!file.startsWith('/') && file !== '')) return `node:${file.replace(/^node:/, '')}`;
  if (file.startsWith(ROOT)) return path.dirname(path.relative(ROOT, file));
  return file === '' ? '(native/vm)' : file;
}

function label(frame: CallFrame): string {
  const file = frame.url.replace(/^file:\/\//, '');
  const short = file.startsWith(ROOT) ? path.relative(ROOT, file) : file.replace(/.*node_modules\//, '');
  return `${frame.functionName || '(anonymous)'} ${short}${short ? `:${frame.lineNumber + 1}` : ''}`;
}

function summarize(file: string, top: number): void {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  let total = 0;
  let idle = 0;
  const selfByLabel = new Map<string, number>();
  const selfByPlace = new Map<string, number>();
  // Inclusive time of a function, counted once per sample even when it recurses.
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id) as ProfileNode;
    total += us;
    if (node.callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const l = label(node.callFrame);
    selfByLabel.set(l, (selfByLabel.get(l) ?? 0) + us);
    const p = where(node.callFrame.url) || node.callFrame.functionName;
    selfByPlace.set(p, (selfByPlace.get(p) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = (byId.get(cur) as ProfileNode).callFrame;
      const fileUrl = frame.url.replace(/^file:\/\//, '');
      if (!fileUrl.startsWith(path.join(ROOT, 'src'))) continue;
      const key = label(frame);
      if (!seen.has(key)) {
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + us);
      }
    }
  }
  const busy = total - idle;
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${k}`);
  };
  console.log(`${path.relative(ROOT, file)}: ${(busy / 1e6).toFixed(1)} s busy, ${(idle / 1e6).toFixed(1)} s idle; percentages of busy time`);
  print('Self time by package or folder', selfByPlace);
  print('Self time by function', selfByLabel);
  print("Total time (self + callees) of Quire's own functions", inclusive);
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const target = args.find((a, i) => !a.startsWith('--') && (topAt < 0 || i !== topAt + 1));
if (!target) {
  console.error('usage: node --import tsx bench/profile.ts <file.cpuprofile|folder> [--top N]');
  process.exit(2);
}
// In a folder, only main-thread profiles (CPU.<date>.<time>.<pid>.0.<seq>): the other
// threads are tsx's module loader, idle once the server has started.
const files = fs.statSync(target).isDirectory()
  ? fs.readdirSync(target).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f)).map((f) => path.join(target, f))
  : [target];
for (const file of files) summarize(file, top);
