/*
 * Builds the markdown corpus outside the repository from bare git directories (fetched
 * snapshots of GitBook-written public repositories): each repository's HEAD tree is
 * extracted to <out>/<owner+name>/, and <out>/manifest.json records, per repository, its
 * commit, its half and, per markdown file, the date and author of the last commit that
 * touched it. The half is decided by the repository's name alone (a seeded hash, sorted;
 * the lower half is the tuning half), so the split is fixed before any page is read.
 *
 * Usage: node bench/corpus-prepare.mjs --out /work/corpus <owner/name>=<git dir> ...
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The corpus, batch by batch. Each batch was listed (from git history and file counts, never
 * from page text) and split with its own seed before any of its pages was read; a batch added
 * later never moves a repository of an earlier one to the other half.
 */
export const CORPUS_BATCHES = [
  {
    seed: 'quire-markdown-corpus-2026-11-27',
    repositories: [
      'Adobe-Marketing-Cloud/aep-sdks-documentation', 'Airstack-xyz/docs', 'AxonIQ/reference-guide',
      'BuildOnViction/gitbook-archive', 'fluent/fluentd-docs-gitbook', 'predicthq/gitbook-tech-docs',
      'programmfabrik/fylr-gitbook', 'sleuth-io/sleuth-gitbook-docs', 'wandb/gitbook',
      'Adobe-Marketing-Cloud/reactor-user-docs', 'ArweaveTeam/docs.arweave.org-info', 'BeefreeSDK/beefree-sdk-docs',
      'BugSplat-Git/bugsplat-docs', 'KonduitAI/deeplearning4j-gitbook-sync', 'MewsSystems/gitbook-connector-api',
      'NSO-developer/nso-gitbook', 'elsa-workflows/elsa-gitbook', 'secoda/gitbook',
    ],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-28',
    repositories: [
      'saleae/gitbook-docs', 'ssvlabs/gitbook-docs', 'clarity-fintech/gitbook',
      'ARK-Electronics/gitbook', 'sunriselayer/gitbook', 'conomyapp/gitbook-docs',
    ],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-28b',
    repositories: [
      'OSDeploy/GitBook', 'GeniusVentures/gitbook', 'Nebukam/PCGExtendedToolkitGitBook',
      'staketown/gitbook', 'angular-package/gitbook', 'lesnikutsa/gitbook.utsa.tech',
    ],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-28c',
    repositories: ['kj89/kjnodes-gitbook', 'etnatrader/gitbookHelp', 'Onurbolatogluu/gitbook', 'Chandra179/gitbook', 'nthucurry/gitbook'],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-28d',
    repositories: [
      'pgsql-tw/gitbook-docs', 'GitbookIO/public-docs', 'pyrhos-prog/pyrhos.gitbook.io',
      'beafn28/GitBook', 'yangnyc1024/gitbook_study', 'DevinNorgarb/gitbook-personnal-docs',
    ],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-28e',
    repositories: ['farukerdem34/Gitbook', 'gugbab2/Backend-GitBook', 'yanisAlb00/gitbook-hacknotes', 'blackbat13/cs-htiew-gitbook'],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-28f',
    repositories: [
      'IkeMurami-Gitbooks/ProgrammingGitbook', 'silviaCerby/gitbook', 'Jarrettgohxz/penetration-testing-ethical-hacking-concepts-gitbook-notes',
      'aggrawal-ankur/gitbook', 'aviator-co/gitbook-docs', 'youai1/gitbook-docs',
    ],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-28g',
    repositories: [
      'Jorgeprieto30/vambe-gitbook-docs', 'Talus-Network/gitbook-docs', 'Pharmetika/gitbook-docs',
      'hjjang-svg/gitbook-docs-prod', 'batamladen/bata-mladen.gitbook.io', 'hyujikoh/hyujikoh.gitbook.io',
    ],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-28h',
    repositories: [
      'marcostolosa/mindsec.gitbook.io', 'prakkshiwalia/prakkshiwalia.gitbook.io', 'THCloud/THCloud.gitbook.io',
      'reishou/reishou.gitbook.io',
    ],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-28i',
    repositories: ['0xXyc/hacking-methodologyNotes', 'Ankur-Pentester/Writeups'],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-29j',
    repositories: ['AP-IT-GH/webtechnologie-cursus', 'CMSForNerd/CmsForNerd'],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-29n',
    repositories: ['The-Viper-One/Pentest-Everything', 'six2dez/pentest-book', 'BikeF/dify-docs'],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-29o',
    repositories: [
      '724thomas/Gitbook-Blog',
      'AchrafBr1/vesta-knowledge-base',
      'Back0ntrack/BugHuntingMadeEasy',
      'Banana-Tool/BananaTool-Docs',
      'CiaoTool-io/CiaoTool',
      'CommandersAct/Platform-Documentation',
    ],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-30p',
    repositories: [
      'Conv-AI/Convai-Documentation',
      'Cybint-Solutions/gitbook',
      'Dyly-666/vulnerableone',
      'Elnatty/tryhackme_labs',
      'Forguncy-Korea/gitbook_forguncy_v9',
      'Gtokentool/GTokenTool_Docs',
    ],
  },
  {
    seed: 'quire-markdown-corpus-2026-11-30q',
    repositories: [
      'HelloLuklak/Luklak_Document',
      'JeffGThompson/Red-Team-Notes',
      'Manuais-SOSDocs/manual-docz-operacao',
      'PatchMyPCTeam/docs.patchmypc.com',
      'ProcessosDatamob/TesteAutomacaoReleaseNotes',
      'RocketChat/docs',
    ],
  },
];

/** Tuning or held-out, from the names alone: within its batch, the half of the list sorted by seeded hash. */
export function splitRepositories(names) {
  const halves = new Map();
  for (const { seed, repositories } of CORPUS_BATCHES) {
    const keyed = repositories.map((name) => ({ name, key: createHash('sha256').update(`${seed}:${name}`).digest('hex') }));
    keyed.sort((a, b) => (a.key < b.key ? -1 : 1));
    const half = Math.ceil(keyed.length / 2);
    keyed.forEach((k, i) => halves.set(k.name, i < half ? 'tuning' : 'held-out'));
  }
  const unknown = names.filter((name) => !halves.has(name));
  if (unknown.length) throw new Error(`not in a corpus batch (add it to CORPUS_BATCHES before reading it): ${unknown.join(', ')}`);
  return new Map(names.map((name) => [name, halves.get(name)]));
}

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
if (outAt < 0) {
  console.error('usage: node bench/corpus-prepare.mjs --out <folder> <owner/name>=<git dir> ...');
  process.exit(2);
}
const out = args[outAt + 1];
const sources = args.filter((_, i) => i !== outAt && i !== outAt + 1).map((a) => a.split('='));
const halves = splitRepositories(sources.map(([name]) => name));
const git = (dir, ...a) => execFileSync('git', ['--git-dir', dir, ...a], { maxBuffer: 1 << 30 });
/** Writes every blob of the commit's tree that the snapshot holds (its largest files may be absent). */
function extractTree(dir, commit, target) {
  const entries = git(dir, 'ls-tree', '-r', '-z', commit)
    .toString()
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta, path] = line.split('\t');
      const [, type, oid] = meta.split(' ');
      return { type, oid, path };
    })
    .filter((e) => e.type === 'blob');
  const sizes = execFileSync('git', ['--git-dir', dir, 'cat-file', '--batch-check'], { input: entries.map((e) => e.oid).join('\n') + '\n', maxBuffer: 1 << 28 })
    .toString()
    .split('\n');
  // Large files (images, videos) are written empty: a link to them still resolves, and their bytes are never measured.
  const large = new Set(entries.filter((e, i) => (sizes[i].includes('missing') || Number(sizes[i].split(' ')[2]) > 256 * 1024) && !/\.(md|ya?ml)$/i.test(e.path)));
  for (const entry of large) {
    const file = join(target, entry.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, '');
  }
  const sizeOf = new Map(entries.map((e, i) => [e, Number(sizes[i].split(' ')[2]) || 0]));
  const wanted = entries.filter((e, i) => !large.has(e) && !sizes[i].includes('missing'));
  // Read in chunks of at most 256 MB: a repository of many small files can hold more than one buffer takes.
  for (let from = 0; from < wanted.length; ) {
    let to = from;
    for (let total = 0; to < wanted.length && (to === from || total + sizeOf.get(wanted[to]) <= 1 << 28); to++) total += sizeOf.get(wanted[to]);
    writeBlobs(dir, target, wanted.slice(from, to));
    from = to;
  }
}

/** Writes the blobs `entries` name under `target`, read from the repository in one `git cat-file --batch`. */
function writeBlobs(dir, target, entries) {
  const batch = execFileSync('git', ['--git-dir', dir, 'cat-file', '--batch'], { input: entries.map((e) => e.oid).join('\n') + '\n', maxBuffer: 1 << 30 });
  let at = 0;
  for (const entry of entries) {
    const end = batch.indexOf(10, at);
    const header = batch.subarray(at, end).toString().split(' ');
    at = end + 1;
    if (header[1] === 'missing') continue;
    const size = Number(header[2]);
    const file = join(target, entry.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, batch.subarray(at, at + size));
    at += size + 1;
  }
}

// `seed` seeds `--sample` in bench/corpus.ts (the first batch's, so samples stay the pages they were).
const manifest = { seed: CORPUS_BATCHES[0].seed, seeds: CORPUS_BATCHES.map((b) => b.seed), repositories: [] };
for (const [name, dir] of sources) {
  const folder = name.replace('/', '+');
  const target = join(out, folder);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  const commit = git(dir, 'rev-parse', 'HEAD').toString().trim();
  const commitDate = git(dir, 'log', '-1', '--format=%cI', commit).toString().trim();
  extractTree(dir, commit, target);
  // The last commit of each markdown file: the first time git log (newest first) names it.
  const files = {};
  let current;
  for (const line of git(dir, 'log', '--no-renames', '--format=@%cI\t%an\t%cn\t%s', '--name-only', commit).toString().split('\n')) {
    if (line.startsWith('@')) {
      // GitBook's commits: committed by gitbook-bot / GitBook, or messages `GitBook: [#NN] ...` (to 2022) and `GITBOOK-NN: ...` (since).
      const [date, author, committer, subject] = line.slice(1).split('\t');
      current = { date, gitbook: /gitbook/i.test(author) || /gitbook/i.test(committer) || /^(?:GitBook: |GITBOOK-\d+: )/.test(subject ?? '') };
    } else if (line.endsWith('.md') && current && !files[line]) files[line] = current;
  }
  manifest.repositories.push({ repo: name, folder, commit, commitDate, half: halves.get(name), files });
  console.log(`${name} ${commit} ${halves.get(name)}`);
}
writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 1));
