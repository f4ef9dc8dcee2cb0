import { deflateSync } from 'node:zlib';
import { markdownToDocument } from '../../src/content/markdown/parse.ts';
import type { Block } from '../../src/content/markdown/types.ts';
import type { TestApp } from '../app.ts';
import { createOrganization } from '../factories.ts';
import { adminApi, spaceWith } from './fixtures.ts';
import { servedTestApp } from './served-app.ts';

/*
 * A content-rich published site built through the API (code, tables, hints, images, tabs),
 * for the reader browser tests and the Lighthouse script.
 */

export { CHROMIUM, CHROMIUM_FLAGS } from './chromium.ts';

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A valid RGB PNG of the given size (a blue gradient); with `disc`, a white disc in its
 * middle, to see how a crop (object-fit) frames it.
 */
export function png(width: number, height: number, disc = false): Buffer {
  const radius = Math.min(width, height) / 4;
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const white = disc && (x - width / 2) ** 2 + (y - height / 2) ** 2 < radius ** 2;
      row.set(white ? [255, 255, 255] : [40 + Math.round((x / width) * 80), 90 + Math.round((y / height) * 60), 220], 1 + x * 3);
    }
    rows.push(row);
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

export const RICH_MARKDOWN = `Acme turns your **configuration** into a running service. This page covers installing it, a first configuration and the API client.

# Install

Install the command line tool with npm:

{% code title="Terminal" %}
\`\`\`bash
npm install --global acme-cli
acme --version
\`\`\`
{% endcode %}

{% hint style="info" %}
Acme needs Node.js 20 or later.
{% endhint %}

# Configure the server

{% code title="acme.config.ts" lineNumbers="true" %}
\`\`\`typescript
import { defineConfig } from 'acme';

// Every option has a default: set only what differs.
export default defineConfig({
  port: 8080,
  database: { url: process.env.DATABASE_URL ?? 'sqlite://acme.db', pool: 10 },
  features: ['search', 'webhooks'],
});
\`\`\`
{% endcode %}

| Option | Default | Meaning |
| --- | --- | --- |
| port | 8080 | Where the server listens |
| database.pool | 10 | Connections kept open |

{% tabs %}
{% tab title="JavaScript" %}
\`\`\`javascript
const client = new Acme({ token: process.env.ACME_TOKEN });
await client.deploy('production');
\`\`\`
{% endtab %}

{% tab title="Python" %}
\`\`\`python
client = Acme(token=os.environ["ACME_TOKEN"])
client.deploy("production")
\`\`\`
{% endtab %}
{% endtabs %}

{% hint style="warning" %}
Deploying to production restarts every worker.
{% endhint %}

# Troubleshooting webhooks

When a webhook fails, Acme retries it three times with a growing delay, then marks the delivery as failed.
`;

export interface ReaderSite {
  t: TestApp;
  url: string;
  /** Path of the site's root, e.g. /sites/acme-docs/ */
  sitePath: string;
  close(): Promise<void>;
}

/** A listening app with a published site: sections, a content-rich first page and a few more. */
export async function readerSite(options: { customization?: Record<string, unknown> } = {}): Promise<ReaderSite> {
  // Download URLs (images) are signed with the address the file store is built with
  // (DOWNLOAD_URL, else PUBLIC_URL), so it must be the real one.
  const { t, url } = await servedTestApp({}, { downloads: true });
  const org = await createOrganization(t);
  const req = adminApi(t, org);
  const guides = await spaceWith(t, org, 'Guides', (e) => {
    const file = e.addFile({ name: 'architecture.png', contentType: 'image/png', bytes: png(640, 280) });
    const document = markdownToDocument(RICH_MARKDOWN);
    const image: Block = {
      object: 'block',
      type: 'images',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'image',
          isVoid: true,
          data: { ref: { kind: 'file', file: file.id }, alt: 'How requests flow through Acme', width: 640 },
          fragments: [],
        },
      ],
    } as unknown as Block;
    document.nodes.splice(3, 0, image);
    const start = e.insertPage({ title: 'Getting started', document, description: 'Install Acme, configure it and call its API in ten minutes.' });
    e.insertPage({ title: 'Installation', markdown: 'Install it with npm or download a release.\n\n# From a release\n\nUnpack the archive.\n' }, { parent: start });
    e.insertPage({ title: 'Configuration', markdown: '# Files\n\nThe configuration file is read at start.\n', description: 'Every configuration option.' });
    e.insertPage({ title: 'Webhooks', markdown: '# Retries\n\nFailed webhook deliveries are retried with backoff.\n', description: 'Receive events from Acme.' });
  });
  const api = await spaceWith(t, org, 'API', (e) => {
    e.insertPage({ title: 'API overview', markdown: 'The REST API.\n', description: 'The REST API in one page.' });
  });
  const site = await req('POST', '/sites', { title: 'Acme Docs', spaces: [guides] });
  await req('PATCH', `/sites/${site.id}`, { basename: 'acme-docs' });
  await req('POST', `/sites/${site.id}/sections`, { spaceId: api, title: 'API reference' });
  if (options.customization) await req('PUT', `/sites/${site.id}/customization`, options.customization);
  await req('POST', `/sites/${site.id}/publish`);
  return { t, url, sitePath: '/sites/acme-docs/', close: () => t.close() };
}

/** Builds the site and keeps serving it (the Lighthouse script runs this from the command line). */
export async function serveReaderSite(): Promise<ReaderSite> {
  return readerSite();
}
