import { ManualClock, isoNow } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { loadSnapshot } from '../../src/content/store/snapshot.ts';
import { newSiteRow } from '../../src/modules/sites/sites.service.ts';
import { defineSuite } from '../harness.ts';
import { seedAdmin, seedSpace } from './content.ts';

// 20 chapters of 9 topics: 200 pages, a documentation site of the usual size.
const PARENTS = 20;
const CHILDREN = 9;

interface PublishedSeed {
  basename: string;
  pagePath: string;
}

/** A public site with two sections (guides: the space above; reference: a small space). */
export const publishedSuite = defineSuite<PublishedSeed>({
  name: 'published',
  description: `1 public site, 2 sections, a ${PARENTS * (CHILDREN + 1)}-page space`,
  seed: async (db) => {
    const clock = new ManualClock('2026-01-05T09:00:00.000Z');
    return db.transaction().execute(async (trx) => {
      const admin = await seedAdmin(trx, clock);
      const guides = await seedSpace(trx, admin.organizationId, admin.userId, clock, PARENTS, CHILDREN);
      const reference = await seedSpace(trx, admin.organizationId, admin.userId, clock, 2, 2);
      const now = isoNow(clock);
      const basename = 'acme-docs';
      const site = {
        ...newSiteRow({ organizationId: admin.organizationId, type: 'basic', title: 'Acme Docs', visibility: 'public', createdBy: admin.userId, now }),
        published: 1,
        basename,
        customization: JSON.stringify({
          styling: { primaryColor: { light: '#e4572e', dark: '#ff8a65' } },
          header: { links: [{ title: 'Website', to: { kind: 'url', url: 'https://acme.example.com' } }] },
          footer: { copyright: '© Acme' },
          themes: { default: 'light', toggeable: true },
        }),
      };
      const siteId = site.id;
      await trx.insertInto('sites').values(site).execute();
      let position = 0;
      for (const [title, path, spaceId] of [
        ['Guides', 'guides', guides.spaceId],
        ['Reference', 'reference', reference.spaceId],
      ] as const) {
        const sectionId = newId();
        await trx
          .insertInto('site_sections')
          .values({ id: sectionId, site_id: siteId, title, description: null, icon: null, path, condition: null, section_group_id: null, position: ++position, created_at: now })
          .execute();
        await trx
          .insertInto('site_spaces')
          .values({ id: newId(), site_id: siteId, section_id: sectionId, space_id: spaceId, path: 'latest', title: null, condition: null, customization: '{}', position: ++position, created_at: now })
          .execute();
      }
      const space = await trx.selectFrom('spaces').select('revision_id').where('id', '=', guides.spaceId).executeTakeFirstOrThrow();
      const snapshot = await loadSnapshot(trx, guides.spaceId, space.revision_id as string);
      const node = snapshot.byId.get(guides.pageId);
      if (!node) throw new Error('seeded page not found');
      return { basename, pagePath: node.path };
    });
  },
  scenarios: [
    {
      name: 'published.page',
      title: `GET /sites/{basename}/{page path} (HTML, ${PARENTS * (CHILDREN + 1)}-page space)`,
      target: 0.5,
      // As browsers ask: compressed (issue 20; the page is compressed once per cached outcome).
      request: (seed) => ({ path: `/sites/${seed.basename}/${seed.pagePath}`, headers: { 'accept-encoding': 'gzip, deflate, br' } }),
    },
  ],
});
