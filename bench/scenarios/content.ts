import type { Db } from '../../src/db/database.ts';
import { loadConfig } from '../../src/config.ts';
import { isoNow, ManualClock } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { RevisionEditor } from '../../src/content/store/editor.ts';
import { createFsBackend } from '../../src/files/fs-store.ts';
import { withSignedUrls } from '../../src/files/index.ts';

const createFsBackendStore = (dataDir: string, db: Db) => withSignedUrls(createFsBackend(dataDir), db, 'http://localhost');
import { organizationsRepository } from '../../src/modules/organizations/organizations.repository.ts';
import { createOrganizationWithAdmin } from '../../src/modules/organizations/organizations.service.ts';
import { spacesRepository } from '../../src/modules/spaces/spaces.repository.ts';
import { usersRepository } from '../../src/modules/users/users.repository.ts';
import { buildUserRow } from '../../src/modules/users/users.service.ts';
import { issueToken } from '../../src/modules/users/users.tokens.ts';
import { defineSuite } from '../harness.ts';

/** A page body of the usual kind: headings, a list, code, a hint, a table. */
export function pageMarkdown(n: number): string {
  return [
    `# Section ${n}`,
    '',
    `This page explains **feature ${n}** with a [link](https://example.com/${n}) and \`inline code\`.`,
    '',
    '## Steps',
    '',
    '1. Install the tool',
    '2. Configure it',
    '3. Run it',
    '',
    '```js',
    `console.log(${n});`,
    '```',
    '',
    '{% hint style="info" %}',
    'Remember to save your work.',
    '{% endhint %}',
    '',
    '| Option | Default |',
    '| --- | --- |',
    `| size | ${n} |`,
    '',
  ].join('\n');
}

export interface ContentSeed {
  spaceId: string;
  pageId: string;
  token: string;
  userId: string;
}

/** A private space with no revision yet, as a bench seeds it (pages are added by the caller). */
export async function seedEmptySpace(db: Db, organizationId: string, userId: string, now: string, title: string): Promise<string> {
  const spaceId = newId();
  await spacesRepository.insert(db, {
    id: spaceId,
    organization_id: organizationId,
    title,
    emoji: '',
    visibility: 'private',
    edit_mode: 'live',
    default_level: 'inherit',
    language: null,
    merge_rules: '{"type":"inherit"}',
    parent_id: null,
    position: 0,
    revision_id: null,
    share_key: newId(32),
    created_by: userId,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  });
  return spaceId;
}

/**
 * A space of `parents × children` pages (plus the parents themselves), written as one
 * revision with the store's own editor: the shape of a large documentation space. Page
 * `n` (0-based, in tree order) gets `markdownOf(n)` as its body.
 */
export async function seedSpace(
  db: Db,
  organizationId: string,
  userId: string,
  clock: ManualClock,
  parents: number,
  children: number,
  markdownOf: (n: number) => string = pageMarkdown,
): Promise<{ spaceId: string; pageId: string }> {
  const config = loadConfig({ DATA_DIR: '/nonexistent-bench-data' });
  const spaceId = await seedEmptySpace(db, organizationId, userId, isoNow(clock), `Docs ${parents * (children + 1)}`);
  // Pages only: no file is stored, so the folder store of a directory never created will do.
  const editor = await RevisionEditor.open(db, spaceId, null, clock, createFsBackendStore(config.dataDir, db));
  let pageId = '';
  let n = 0;
  for (let p = 0; p < parents; p++) {
    const parent = editor.insertPage({ title: `Chapter ${p}`, markdown: markdownOf(n++) });
    for (let c = 0; c < children; c++) {
      const id = editor.insertPage({ title: `Topic ${p}.${c}`, markdown: markdownOf(n++) }, { parent });
      if (p === Math.floor(parents / 2) && c === Math.floor(children / 2)) pageId = id;
    }
  }
  const revisionId = await editor.commit(db, { createdBy: userId });
  await spacesRepository.update(db, spaceId, { revision_id: revisionId });
  return { spaceId, pageId: pageId || editor.childrenOf(null)[0].id };
}

/** The bootstrap organization and its admin's token, as a fresh install has them. */
export async function seedAdmin(db: Db, clock: ManualClock) {
  const admin = buildUserRow(clock, { email: 'admin@bench.quire.test', displayName: 'Bench Admin', emailVerified: true });
  await usersRepository.insert(db, admin);
  const organization = await createOrganizationWithAdmin(db, clock, { title: 'Bench Organization' }, admin.id);
  await organizationsRepository.claimBootstrap(db, { id: 1, organization_id: organization.id, user_id: admin.id, created_at: isoNow(clock) });
  const { token } = await issueToken(db, clock, admin.id, 'bench');
  return { organizationId: organization.id, userId: admin.id, token };
}

// 100 chapters of 99 topics: 10,000 pages.
export const PARENTS = 100;
export const CHILDREN = 99;

/**
 * An organization's admin and one space of `parents` chapters of `children` topics each
 * (page `n`'s body `markdownOf(n)`), in one transaction.
 */
export async function seedAdminSpace(db: Db, parents: number, children: number, markdownOf: (n: number) => string = pageMarkdown): Promise<ContentSeed> {
  const clock = new ManualClock('2026-01-05T09:00:00.000Z');
  return db.transaction().execute(async (trx) => {
    const admin = await seedAdmin(trx, clock);
    const space = await seedSpace(trx, admin.organizationId, admin.userId, clock, parents, children, markdownOf);
    return { ...space, token: admin.token, userId: admin.userId };
  });
}

const auth = (seed: ContentSeed) => ({ authorization: `Bearer ${seed.token}` });

/** One space of 10,000 pages, read by its organization's admin. */
export const contentSuite = defineSuite<ContentSeed>({
  name: 'content',
  description: `1 space of ${PARENTS * (CHILDREN + 1)} pages (${PARENTS} chapters of ${CHILDREN} topics)`,
  seed: (db) => seedAdminSpace(db, PARENTS, CHILDREN),
  scenarios: [
    {
      name: 'content.page',
      title: 'GET {S}/content/page/{pageId}?format=markdown (10,000-page space)',
      target: 0.6,
      request: (seed) => ({ path: `/v1/spaces/${seed.spaceId}/content/page/${seed.pageId}?format=markdown`, headers: auth(seed) }),
    },
    {
      // Reference: the space itself (access check, no content).
      name: 'spaces.get',
      title: 'GET {S}',
      request: (seed) => ({ path: `/v1/spaces/${seed.spaceId}`, headers: auth(seed) }),
    },
  ],
});
