import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../src/db/database.ts';
import type { Db } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import {
  captureOk,
  compare,
  ROOT,
  startBare,
  startQuire,
  tempDir,
  type LoadOptions,
  type Round,
  type ScenarioInfo,
  type ServerLaunch,
  type ServerProcess,
  type Suite,
  type Summary,
} from './harness.ts';
import { organizationSuite } from './scenarios/organization.ts';
import { contentSuite } from './scenarios/content.ts';
import { publishedSuite } from './scenarios/published.ts';
import { searchSuite } from './scenarios/search.ts';
import { commentsSuite } from './scenarios/comments.ts';
import { conversationsSuite } from './scenarios/conversations.ts';
import { openapiSuite } from './scenarios/openapi.ts';
import { searchLoadSuite } from './scenarios/search-load.ts';
import { MIXED, measureMixed, seedMixed, type MixedResult } from './scenarios/mixed.ts';
import { measureEditScaling, type EditScaling } from './edit-scaling.ts';
import { measureChangeRequestScaling, type ChangeRequestScaling } from './change-request-scaling.ts';
import { measureStartup, STARTUP, type Startup } from './startup.ts';
import { measureGitSyncScaling, type GitSyncScaling } from './git-sync-scaling.ts';
import { measureTranslationScaling, TRANSLATION_SCALING, type TranslationScaling } from './translation-scaling.ts';

/*
 * `npm run bench [-- --only <names>] [--database sqlite|postgres] [--database-url <url>]
 * [--duration <s>] [--rounds <n>] [--warmup <s>] [--connections <n>] [--profile] [--source] [--server-flags=<node flags>] [--list]`: seeds each
 * suite's database, runs Quire (the built server, dist/, as `npm start` does; `--source`: through
 * tsx) and a bare node:http server in child processes, measures
 * both in alternation, prints a markdown table and writes bench/results/<timestamp>.json.
 * The mixed workload (bench/scenarios/mixed.ts) has its own seed and server and reports
 * req/s and p99 without a bare server. See docs/performance.md.
 */

const SUITES: Suite[] = [organizationSuite, contentSuite, publishedSuite, commentsSuite, searchSuite, searchLoadSuite, conversationsSuite, openapiSuite];

/** Measured in process rather than over HTTP: the cost of an edit as a space grows. */
const EDIT_SCALING = { name: 'content.edit', title: 'one-page edit, 10,000-page space ÷ 10-page space (median ms)', target: 2 };
const GIT_SCALING = { name: 'git-sync.export', title: 'git import of a 2,000-page repository; one-page export, 2,000-page ÷ 20-page space (median ms)', target: 3 };
const CR_SCALING = { name: 'change-requests.edit-merge', title: 'one-page batch edit and merge of a change request, 10,000-page ÷ 10-page space (median ms)', target: 2 };

/** A mistake on the command line: reported as one line, without a stack. */
class UsageError extends Error {}

interface ScenarioResult extends ScenarioInfo {
  suite: string;
  path?: string;
  responseBytes?: number;
  rounds?: Round[];
  summary?: Summary;
  meetsTarget?: boolean;
  error?: string;
}

function positive(name: string, raw: string | undefined, fallback: number, allowZero = false): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !allowZero)) {
    throw new UsageError(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got "${raw}"`);
  }
  return value;
}

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

const fixed = (value: number | undefined, digits: number) => (value === undefined ? '-' : value.toFixed(digits));

/** The summary as a markdown table, ready to paste into docs/performance.md. */
function markdownTable(results: ScenarioResult[]): string {
  const lines = [
    '| Scenario | Request | Quire req/s | Bare req/s | Ratio | Target | Quire p99 ms | Bare p99 ms | Quire CPU µs/req | Bare CPU µs/req | CPU ratio |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of results) {
    const target = r.target === undefined ? '-' : `≥ ${r.target}`;
    if (!r.summary) {
      lines.push(`| ${r.name} | \`${r.title}\` | FAILED | | | ${target} | | | | | |`);
      continue;
    }
    const s = r.summary;
    const verdict = r.target === undefined ? '' : r.meetsTarget ? ' ✓' : ' ✗';
    lines.push(
      `| ${r.name} | \`${r.title}\` | ${s.quireRps.toFixed(0)} | ${s.bareRps.toFixed(0)} | ${s.ratio.toFixed(3)}${verdict} | ${target} | ${s.quireP99.toFixed(0)} | ${s.bareP99.toFixed(0)} | ${fixed(s.quireCpuMicros, 0)} | ${fixed(s.bareCpuMicros, 0)} | ${fixed(s.cpuRatio, 3)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * Seeds a fresh DATA_DIR (on PostgreSQL: a schema of its own, dropped after), starts Quire
 * on it and hands the server, the seed and the scratch folder to `use`.
 */
async function withSeededQuire<S, T>(
  name: string,
  description: string,
  seed: (db: Db) => Promise<S>,
  launch: ServerLaunch,
  postgresUrl: string | undefined,
  use: (quire: ServerProcess, seeded: S, dir: string) => Promise<T>,
  serverEnv?: Record<string, string>,
): Promise<T> {
  const dir = tempDir(name);
  const dataDir = path.join(dir, 'data');
  const pgSchema = postgresUrl ? `bench_${name.replace(/\W/g, '_')}_${process.pid}` : undefined;
  let serverDatabaseUrl: string | undefined;
  if (postgresUrl && pgSchema) {
    await onPostgres(postgresUrl, `drop schema if exists ${pgSchema} cascade; create schema ${pgSchema}`);
    const url = new URL(postgresUrl);
    url.searchParams.set('options', `-c search_path=${pgSchema}`);
    serverDatabaseUrl = url.toString();
  }
  try {
    progress(`${name}: seeding ${description} on ${postgresUrl ? 'PostgreSQL' : 'SQLite'}`);
    const handle = openDatabase({ dataDir, databaseUrl: postgresUrl, pgSchema });
    let seeded: S;
    try {
      await migrateToLatest(handle.db);
      seeded = await seed(handle.db);
    } finally {
      await handle.close();
    }

    const quire = await startQuire({ dataDir, launch, databaseUrl: serverDatabaseUrl, env: serverEnv });
    progress(`${name}: Quire pid ${quire.pid} at ${quire.url}`);
    try {
      return await use(quire, seeded, dir);
    } finally {
      await quire.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    if (postgresUrl && pgSchema) await onPostgres(postgresUrl, `drop schema if exists ${pgSchema} cascade`);
  }
}

/** Seeds a suite in a fresh DATA_DIR, starts Quire on it and measures the selected scenarios. */
async function runSuite(
  suite: Suite,
  selected: ScenarioInfo[],
  load: LoadOptions,
  launch: ServerLaunch,
  postgresUrl: string | undefined,
): Promise<ScenarioResult[]> {
  return withSeededQuire(suite.name, suite.description, (db) => suite.prepare(db), launch, postgresUrl, async (quire, requests, dir) => {
    const results: ScenarioResult[] = [];
    for (const scenario of selected) {
      const request = requests.get(scenario.name);
      const result: ScenarioResult = { suite: suite.name, ...scenario };
      results.push(result);
      if (!request) {
        result.error = `suite ${suite.name} built no request for scenario ${scenario.name}`;
        continue;
      }
      result.path = request.path;
      try {
        const response = await captureOk(quire.url, scenario.name, request);
        result.responseBytes = response.body.length;
        const bare = await startBare(response, dir);
        progress(`${scenario.name}: ${response.body.length} bytes; bare server pid ${bare.pid} at ${bare.url}`);
        try {
          const { rounds, summary } = await compare(scenario.name, quire.url, bare.url, request, load, progress, { quire: quire.pid, bare: bare.pid });
          result.rounds = rounds;
          result.summary = summary;
          if (scenario.target !== undefined) result.meetsTarget = summary.ratio >= scenario.target;
        } finally {
          await bare.stop();
        }
        // The yardstick is only fair while Quire keeps answering the same bytes.
        const after = await captureOk(quire.url, scenario.name, request);
        if (after.body.length !== response.body.length) {
          progress(`warning: ${scenario.name} answered ${after.body.length} bytes after the run, ${response.body.length} before`);
        }
      } catch (error) {
        result.error = error instanceof Error ? error.message : String(error);
        progress(`ERROR ${result.error}`);
      }
    }
    return results;
  }, suite.serverEnv);
}

/** Runs statements on PostgreSQL outside any schema (create and drop the bench's). */
async function onPostgres(url: string, statements: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statements);
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      duration: { type: 'string' },
      rounds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      profile: { type: 'boolean', default: false },
      source: { type: 'boolean', default: false },
      'server-flags': { type: 'string' },
      list: { type: 'boolean', default: false },
      database: { type: 'string', default: 'sqlite' },
      'database-url': { type: 'string' },
    },
    strict: true,
  });

  if (values.list) {
    console.log(`${EDIT_SCALING.name.padEnd(16)} ${'content'.padEnd(14)} ${EDIT_SCALING.title}  (target ≤ ${EDIT_SCALING.target})`);
    console.log(`${CR_SCALING.name.padEnd(16)} ${'content'.padEnd(14)} ${CR_SCALING.title}  (target ≤ ${CR_SCALING.target})`);
    console.log(`${STARTUP.name.padEnd(16)} ${'startup'.padEnd(14)} ${STARTUP.title}  (target ≤ ${STARTUP.targetMs} ms, ≤ ${STARTUP.targetRssMb} MB)`);
    console.log(`${GIT_SCALING.name.padEnd(16)} ${'git-sync'.padEnd(14)} ${GIT_SCALING.title}  (target ≤ ${GIT_SCALING.target})`);
    console.log(`${MIXED.name.padEnd(16)} ${MIXED.name.padEnd(14)} ${MIXED.title}  (req/s and p99, no ratio)`);
    for (const suite of SUITES) {
      for (const s of suite.scenarios) {
        console.log(`${s.name.padEnd(16)} ${suite.name.padEnd(14)} ${s.title}${s.target === undefined ? '' : `  (target ≥ ${s.target})`}`);
      }
    }
    return 0;
  }

  if (values.database !== 'sqlite' && values.database !== 'postgres') {
    throw new UsageError(`--database must be sqlite or postgres, got "${values.database}"`);
  }
  const postgresUrl =
    values.database === 'postgres' ? (values['database-url'] ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test') : undefined;

  const load: LoadOptions = {
    duration: positive('duration', values.duration, 3),
    rounds: Math.round(positive('rounds', values.rounds, 5)),
    warmup: positive('warmup', values.warmup, 2, true),
    connections: Math.round(positive('connections', values.connections, 10)),
  };

  // --only takes scenario or suite names, comma-separated.
  const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
  const known = new Set([EDIT_SCALING.name, CR_SCALING.name, STARTUP.name, GIT_SCALING.name, 'git-sync', TRANSLATION_SCALING.name, MIXED.name, ...SUITES.flatMap((suite) => [suite.name, ...suite.scenarios.map((s) => s.name)])]);
  const unknown = (only ?? []).filter((name) => !known.has(name));
  if (unknown.length > 0) throw new UsageError(`--only: unknown scenario ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  const picks = (suite: Suite) =>
    suite.scenarios.filter((s) => !only || only.includes(suite.name) || only.includes(s.name));

  const startedAt = new Date();
  const loadAtStart = os.loadavg();
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const resultsDir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  // Extra Node flags for the Quire process, for experiments (e.g. a preloaded patch, GC sizes).
  const nodeFlags: string[] = values['server-flags']?.split(/\s+/).filter(Boolean) ?? [];
  if (values.profile) {
    const profileDir = path.join(resultsDir, `profile-${stamp}`);
    nodeFlags.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
    progress(`profiling the Quire server into ${path.relative(ROOT, profileDir)}`);
  }
  const launch: ServerLaunch = { nodeFlags, source: values.source };

  const runMixed = !only || only.includes(MIXED.name);
  const mixedOptions = { ...load, duration: values.duration === undefined ? MIXED.defaultDuration : load.duration, database: values.database };

  const commit = git('rev-parse', '--short', 'HEAD');
  const dirty = git('status', '--porcelain') !== '';
  progress(
    `bench: ${os.cpus().length} CPUs, node ${process.version}, commit ${commit}${dirty ? ' (uncommitted changes)' : ''}; ` +
      `${load.rounds} rounds × ${load.duration} s per server${runMixed ? ` (mixed: ${mixedOptions.duration} s)` : ''}, ${load.warmup} s warm-up, ${load.connections} connections, ${values.database}, ${launch.source ? 'server from source (tsx)' : 'built server (dist/)'}`,
  );

  const results: ScenarioResult[] = [];
  for (const suite of SUITES) {
    const selected = picks(suite);
    if (selected.length > 0) results.push(...(await runSuite(suite, selected, load, launch, postgresUrl)));
  }

  // The mixed workload: its own seed and server, 10 s runs unless --duration says otherwise.
  let mixed: MixedResult | undefined;
  let mixedError: string | undefined;
  if (runMixed) {
    try {
      mixed = await withSeededQuire(MIXED.name, '1 space of 1,000 pages of ~3 KB with 300 comments, 60 members, a public site over a 200-page space', seedMixed, launch, postgresUrl, (quire, seed) =>
        measureMixed(quire.url, seed, mixedOptions, () => os.loadavg(), progress),
      );
    } catch (error) {
      mixedError = error instanceof Error ? error.message : String(error);
      progress(`ERROR ${mixedError}`);
    }
  }

  let editScaling: EditScaling | undefined;
  // The in-process scaling measures open their own SQLite files: SQLite only.
  if (!postgresUrl && (!only || only.includes(EDIT_SCALING.name) || only.includes('content'))) {
    progress(`${EDIT_SCALING.name}: seeding a ${10_000}-page and a 10-page space`);
    editScaling = await measureEditScaling();
  }

  let crScaling: ChangeRequestScaling | undefined;
  if (!postgresUrl && (!only || only.includes(CR_SCALING.name) || only.includes('content'))) {
    progress(`${CR_SCALING.name}: seeding a 10,000-page and a 10-page space`);
    crScaling = await measureChangeRequestScaling();
  }

  let gitScaling: GitSyncScaling | undefined;
  if (!postgresUrl && (!only || only.includes(GIT_SCALING.name) || only.includes('git-sync'))) {
    progress(`${GIT_SCALING.name}: importing a 2,000-page and a 20-page repository from git http-backend on 127.0.0.1`);
    gitScaling = await measureGitSyncScaling();
  }

  let startup: Startup | undefined;
  if (!only || only.includes(STARTUP.name)) {
    progress(`${STARTUP.name}: starting the built server 5 times on a migrated database (load average ${os.loadavg()[0].toFixed(1)})`);
    startup = await measureStartup(5, progress);
  }

  let translationScaling: TranslationScaling | undefined;
  if (!postgresUrl && (!only || only.includes(TRANSLATION_SCALING.name))) {
    progress(`${TRANSLATION_SCALING.name}: seeding a 1,000-page space and a LibreTranslate stand-in`);
    translationScaling = await measureTranslationScaling();
  }

  const file = path.join(resultsDir, `${stamp}.json`);
  const report = {
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    commit,
    dirty,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memoryBytes: os.totalmem(),
      platform: `${os.platform()} ${os.release()}`,
      // Other work on the machine skews both servers; the load averages tell how much there was.
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: os.loadavg(),
    },
    node: process.version,
    database: values.database,
    server: launch.source ? 'source' : 'built',
    load,
    results,
    mixed,
    mixedError,
    editScaling,
    crScaling,
    startup,
    gitScaling,
    translationScaling,
  };
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + '\n');

  if (results.length > 0 || !mixed) {
    console.log(`\n${markdownTable(results)}\n`);
    console.log(`Ratio: median over rounds of (Quire req/s ÷ bare req/s); p99: median over rounds. Results: ${path.relative(ROOT, file)}`);
  }
  if (mixed) {
    const m = mixed;
    const loads = (l: number[]) => l.map((v) => v.toFixed(1)).join(' ');
    console.log(`\n| Scenario | Database | Connections | Quire req/s | p50 ms | p99 ms | Requests | Writes | Load average (start → end) |\n|---|---|---:|---:|---:|---:|---:|---:|---|`);
    console.log(
      `| ${MIXED.name} | ${m.database} | ${m.connections} | ${m.summary.rps.toFixed(0)} | ${m.summary.p50.toFixed(1)} | ${m.summary.p99.toFixed(1)} | ` +
        `${m.rounds.reduce((sum, r) => sum + r.requests, 0)} | ${(100 * m.summary.writeShare).toFixed(1)}% | ${loads(m.loadAverageAtStart)} → ${loads(m.loadAverageAtEnd)} |`,
    );
    console.log(`\n| Request kind | Requests | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|`);
    for (const [kind, l] of Object.entries(m.summary.byKind)) {
      console.log(`| ${kind} | ${l.requests} | ${l.p50.toFixed(1)} | ${l.p99.toFixed(1)} | ${l.max.toFixed(0)} |`);
    }
    console.log(
      `\nMixed: ${m.rounds.length} rounds × ${m.duration} s; req/s, p50 and p99 are medians over rounds (exact percentiles of each round's requests); ` +
        `by kind, all rounds together. No bare-server ratio: a mix of different answers and writes has no fixed-response yardstick, so these are absolute figures of this machine under its load. Results: ${path.relative(ROOT, file)}`,
    );
  }
  if (editScaling) {
    const e = editScaling;
    const verdict = e.ratio <= EDIT_SCALING.target ? '✓' : '✗';
    console.log(`\n| Scenario | Measure | ${e.largePages} pages | ${e.smallPages} pages | Ratio | Target |\n|---|---|---:|---:|---:|---:|`);
    console.log(`| ${EDIT_SCALING.name} | one-page edit, median ms (${e.objectsPerEdit} objects written) | ${e.largeMedianMs.toFixed(2)} | ${e.smallMedianMs.toFixed(2)} | ${e.ratio.toFixed(2)} ${verdict} | ≤ ${EDIT_SCALING.target} |`);
    if (e.ratio > EDIT_SCALING.target) console.error(`above target ${EDIT_SCALING.name}: ratio ${e.ratio.toFixed(2)} > ${EDIT_SCALING.target}`);
  }
  if (crScaling) {
    const c = crScaling;
    console.log(`\n| Scenario | Measure | ${c.largePages} pages | ${c.smallPages} pages | Ratio | Target |\n|---|---|---:|---:|---:|---:|`);
    for (const [measure, figures] of [['batch edit (one page)', c.edit], ['merge', c.merge]] as const) {
      const verdict = figures.ratio <= CR_SCALING.target ? '✓' : '✗';
      console.log(`| ${CR_SCALING.name} | ${measure}, median ms | ${figures.largeMedianMs.toFixed(2)} | ${figures.smallMedianMs.toFixed(2)} | ${figures.ratio.toFixed(2)} ${verdict} | ≤ ${CR_SCALING.target} |`);
      if (figures.ratio > CR_SCALING.target) console.error(`above target ${CR_SCALING.name} ${measure}: ratio ${figures.ratio.toFixed(2)} > ${CR_SCALING.target}`);
    }
  }
  if (gitScaling) {
    const g = gitScaling;
    const verdict = g.ratio <= GIT_SCALING.target ? '✓' : '✗';
    console.log(`\n| Scenario | Measure | ${g.largePages} pages | ${g.smallPages} pages | Ratio | Target |\n|---|---|---:|---:|---:|---:|`);
    console.log(`| ${GIT_SCALING.name} | import, ms | ${g.importMs.toFixed(0)} | ${g.smallImportMs.toFixed(0)} | | |`);
    console.log(`| ${GIT_SCALING.name} | export after a one-page edit, median ms | ${g.largeExportMs.toFixed(1)} | ${g.smallExportMs.toFixed(1)} | ${g.ratio.toFixed(2)} ${verdict} | ≤ ${GIT_SCALING.target} |`);
    if (g.ratio > GIT_SCALING.target) console.error(`above target ${GIT_SCALING.name}: ratio ${g.ratio.toFixed(2)} > ${GIT_SCALING.target}`);
  }
  if (translationScaling) {
    const x = translationScaling;
    const verdict = x.ratio < TRANSLATION_SCALING.target && x.secondPagesSent === 1 ? '✓' : '✗';
    console.log(`\n| Scenario | Measure | First run | Second run | Ratio | Target |\n|---|---|---:|---:|---:|---:|`);
    console.log(`| ${TRANSLATION_SCALING.name} | run ms (provider ms) | ${x.firstRunMs.toFixed(0)} (${x.firstProviderMs.toFixed(0)}) | ${x.secondRunMs.toFixed(0)} (${x.secondProviderMs.toFixed(0)}) | ${x.ratio.toFixed(3)} ${verdict} | < ${TRANSLATION_SCALING.target} |`);
    console.log(`| ${TRANSLATION_SCALING.name} | pages sent; Quire's own ms per page (first run) | ${x.pages}; ${x.ownMsPerPage.toFixed(2)} | ${x.secondPagesSent} (${x.secondSegmentsSent} segments) | | 1 page |`);
    if (verdict === '✗') console.error(`above target ${TRANSLATION_SCALING.name}: ratio ${x.ratio.toFixed(3)}, ${x.secondPagesSent} pages sent`);
  }
  if (startup) {
    const ok = (value: number, target: number) => (value <= target ? '✓' : '✗');
    console.log(`\n| Scenario | Measure | Median | Runs | Target |\n|---|---|---:|---|---:|`);
    console.log(`| ${STARTUP.name} | first answer after \`npm start\`, ms | ${startup.medianFirstAnswerMs.toFixed(0)} ${ok(startup.medianFirstAnswerMs, STARTUP.targetMs)} | ${startup.firstAnswerMs.map((v) => v.toFixed(0)).join(', ')} | ≤ ${STARTUP.targetMs} |`);
    console.log(`| ${STARTUP.name} | CPU time to the first answer, ms | ${startup.medianFirstAnswerCpuMs.toFixed(0)} | ${startup.firstAnswerCpuMs.map((v) => v.toFixed(0)).join(', ')} | |`);
    console.log(`| ${STARTUP.name} | idle RSS, MB | ${startup.medianIdleRssMb.toFixed(0)} ${ok(startup.medianIdleRssMb, STARTUP.targetRssMb)} | ${startup.idleRssMb.map((v) => v.toFixed(0)).join(', ')} | ≤ ${STARTUP.targetRssMb} |`);
  }
  const failed = results.filter((r) => r.error);
  for (const r of failed) console.error(`FAILED ${r.name}: ${r.error}`);
  if (mixedError) console.error(`FAILED ${MIXED.name}: ${mixedError}`);
  const missed = results.filter((r) => r.meetsTarget === false);
  for (const r of missed) console.error(`below target ${r.name}: ratio ${r.summary?.ratio.toFixed(3)} < ${r.target}`);
  return failed.length > 0 || mixedError ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const usage = error instanceof UsageError || (error as { code?: string })?.code?.startsWith('ERR_PARSE_ARGS');
    console.error(usage ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(usage ? 2 : 1);
  },
);
