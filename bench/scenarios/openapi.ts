import { ManualClock, isoNow } from '../../src/lib/clock.ts';
import { newId } from '../../src/lib/ids.ts';
import { loadConfig } from '../../src/config.ts';
import { RevisionEditor } from '../../src/content/store/editor.ts';
import { createFsBackend } from '../../src/files/fs-store.ts';
import { withSignedUrls } from '../../src/files/index.ts';
import { createOutboundClient } from '../../src/lib/outbound/index.ts';
import { largeSpec } from '../../src/modules/openapi-specs/openapi-specs.fixtures.ts';
import { loadSpec } from '../../src/modules/openapi-specs/openapi-specs.process.ts';
import { openapiSpecsRepository } from '../../src/modules/openapi-specs/openapi-specs.repository.ts';
import { spacesRepository } from '../../src/modules/spaces/spaces.repository.ts';
import { newSiteRow } from '../../src/modules/sites/sites.service.ts';
import { defineSuite } from '../harness.ts';
import { seedAdmin, seedEmptySpace } from './content.ts';

/** About the size of a large public API's document. */
const SPEC_BYTES = 1024 * 1024;

interface OpenAPISeed {
  basename: string;
}

/**
 * A published page with an openapi-operation block from a ~1 MB spec: the spec is parsed
 * once per version, the page rendered once per (revision, spec version), so a request
 * costs a version lookup and a cached page.
 */
export const openapiSuite = defineSuite<OpenAPISeed>({
  name: 'openapi',
  description: `1 public site whose page shows one operation of a ${Math.round(SPEC_BYTES / 1024)} KB OpenAPI spec`,
  seed: async (db) => {
    const clock = new ManualClock('2026-01-05T09:00:00.000Z');
    // Processed as the job would, from text (no network).
    const outbound = createOutboundClient();
    const loaded = await loadSpec(outbound, { text: largeSpec(SPEC_BYTES) }, { timeoutMs: 60_000 });
    await outbound.close();
    if (!loaded.ok) throw new Error(`bench spec does not validate: ${loaded.errors[0]?.message}`);
    return db.transaction().execute(async (trx) => {
      const admin = await seedAdmin(trx, clock);
      const now = isoNow(clock);
      const specId = newId();
      const versionId = newId();
      await openapiSpecsRepository.insert(trx, {
        id: specId,
        organization_id: admin.organizationId,
        slug: 'acme',
        source_url: null,
        source_text: null,
        visibility: 'private',
        processing_state: 'complete',
        last_version_id: null,
        last_processed_at: now,
        last_error_code: null,
        last_errors: null,
        last_error_count: 0,
        created_at: now,
        updated_at: now,
      });
      await openapiSpecsRepository.insertVersion(trx, {
        id: versionId,
        spec_id: specId,
        created_at: now,
        content_hash: loaded.hash,
        source_url: null,
        format: loaded.format,
        raw: loaded.raw,
        filesystem: JSON.stringify(loaded.filesystem),
      });
      await openapiSpecsRepository.update(trx, specId, { last_version_id: versionId });

      const spaceId = await seedEmptySpace(trx, admin.organizationId, admin.userId, now, 'API');
      const config = loadConfig({ DATA_DIR: '/nonexistent-bench-data' });
      const editor = await RevisionEditor.open(trx, spaceId, null, clock, withSignedUrls(createFsBackend(config.dataDir), trx, 'http://localhost'));
      editor.insertPage({
        title: 'Update an order',
        markdown: 'Orders can be changed while they are open.\n\n{% openapi-operation spec="acme" path="/orders/{orderId}" method="patch" %}\n{% endopenapi-operation %}\n',
      });
      const revisionId = await editor.commit(trx, { createdBy: admin.userId });
      await spacesRepository.update(trx, spaceId, { revision_id: revisionId });

      const basename = 'acme-api';
      const site = {
        ...newSiteRow({ organizationId: admin.organizationId, type: 'basic', title: 'Acme API', visibility: 'public', createdBy: admin.userId, now }),
        published: 1,
        basename,
        customization: '{}',
      };
      const siteId = site.id;
      await trx.insertInto('sites').values(site).execute();
      await trx
        .insertInto('site_spaces')
        .values({ id: newId(), site_id: siteId, section_id: null, space_id: spaceId, path: 'latest', title: null, condition: null, customization: '{}', position: 1, created_at: now })
        .execute();
      return { basename };
    });
  },
  scenarios: [
    {
      name: 'openapi.page',
      title: `GET /sites/{basename}/ (HTML, an openapi-operation block from a ${Math.round(SPEC_BYTES / 1024)} KB spec)`,
      target: 0.5,
      request: (seed) => ({ path: `/sites/${seed.basename}/`, headers: { 'accept-encoding': 'gzip, deflate, br' } }),
    },
  ],
});
