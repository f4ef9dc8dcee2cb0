import type { AppDeps } from '../../context.ts';
import { resolveVariables, type Document } from '../../content/markdown/index.ts';
import { documentToMarkdown } from '../../content/markdown/write.ts';
import { loadDocument, loadSnapshot, LruCache } from '../../content/store/snapshot.ts';
import type { PageNode, RevisionSnapshot } from '../../content/store/types.ts';
import { type PublishedSiteRow } from './published.repository.ts';
import type { PlacedSiteSpace, Structure } from './reader-structure.ts';
import { parseJson, variablesOf } from './reader-page.ts';

/* The files of a published site beside its pages: robots.txt, sitemap.xml, llms.txt, llms-full.txt, and each page's markdown. */

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock' | 'caches' | 'files'>;
/** Indexable document pages of a tree, depth first (hidden and noIndex ones left out). */
function listedPages(nodes: PageNode[], into: PageNode[] = []): PageNode[] {
  for (const node of nodes) {
    if (node.entry.hidden) continue;
    if (node.entry.type === 'document' && !node.entry.noIndex && !node.entry.noRobotsIndex) into.push(node);
    listedPages(node.children, into);
  }
  return into;
}

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string);

export function emptySitemap(): string {
  return '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n';
}

/** sitemap.xml of a public site: every listed page of the site spaces anonymous visitors see. */
export async function sitemap(deps: Deps, structure: Structure, origin: string): Promise<string> {
  let out = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  for (const placed of structure.siteSpaces) {
    if (!placed.row.revision_id) continue;
    const snapshot = await loadSnapshot(deps.db, placed.row.space_id, placed.row.revision_id);
    const lastmod = snapshot.revision.createdAt ? `<lastmod>${xmlEscape(String(snapshot.revision.createdAt))}</lastmod>` : '';
    for (const node of listedPages(snapshot.pages)) out += `<url><loc>${xmlEscape(`${origin}${placed.base}${node.path}`)}</loc>${lastmod}</url>\n`;
  }
  return out + '</urlset>\n';
}

// Page markdown by (space, revision, page): revisions never change.
const markdownCache = new LruCache<string>(512);

/** A page's markdown as GitBook publishes it: `# Title`, the description, then the content. */
export async function pageMarkdown(deps: Deps, placed: PlacedSiteSpace, snapshot: RevisionSnapshot, node: PageNode): Promise<string> {
  const key = `${placed.row.space_id}\n${snapshot.revision.id}\n${node.entry.id}`;
  const hit = markdownCache.get(key);
  if (hit !== undefined) return hit;
  let document = node.entry.document ? await loadDocument<Document>(deps.db, placed.row.space_id, node.entry.document) : undefined;
  if (document) document = resolveVariables(document, variablesOf(snapshot, node));
  let markdown = `# ${node.entry.title}\n\n`;
  if (node.entry.description) markdown += `${node.entry.description}\n\n`;
  if (document) markdown += documentToMarkdown(document, { headingOffset: 1 });
  markdownCache.set(key, markdown);
  return markdown;
}

/**
 * llms.txt (https://llmstxt.org): the site's title, then each site space's pages as links
 * to their markdown; llms-full.txt: every page's markdown, one after the other.
 */
export async function llmsText(deps: Deps, site: PublishedSiteRow, structure: Structure, origin: string, full: boolean): Promise<string> {
  const customization = parseJson(site.customization);
  const title = typeof customization.title === 'string' && customization.title ? customization.title : site.title;
  let out = `# ${title}\n\n`;
  for (const placed of structure.siteSpaces) {
    if (!placed.row.revision_id) continue;
    const snapshot = await loadSnapshot(deps.db, placed.row.space_id, placed.row.revision_id);
    const pages = listedPages(snapshot.pages);
    if (pages.length === 0) continue;
    const heading = placed.section && placed.section.title !== placed.title ? `${placed.section.title}: ${placed.title}` : placed.title;
    if (!full) {
      out += `## ${heading}\n\n`;
      for (const node of pages) {
        out += `- [${node.entry.title.replace(/[[\]]/g, '')}](${origin}${placed.base}${node.path}.md)${node.entry.description ? `: ${node.entry.description}` : ''}\n`;
      }
      out += '\n';
      continue;
    }
    for (const node of pages) out += `${await pageMarkdown(deps, placed, snapshot, node)}\n---\n\n`;
  }
  return out;
}
