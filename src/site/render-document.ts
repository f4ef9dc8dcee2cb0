import type {
  Block,
  CodeBlock,
  ContentRef,
  Document,
  ImageBlock,
  ImageRef,
  InlineContent,
  InlineImage,
  Leaf,
  Mark,
  TableBlock,
  TableRecord,
  TextColor,
} from '../content/markdown/types.ts';
import { escapeHtml, safeUrl } from './html.ts';
import { highlightLines } from './highlight.ts';
import { HINT_STYLES, markupOf } from '../content/markdown/types.ts';
import { mapUrlAttributes, readLiquidTag } from '../content/markdown/syntax.ts';
import { markdownToDocument } from '../content/markdown/parse.ts';
import { readHtmlTable } from '../content/markdown/html-table.ts';
import { PAGE_HEADING_OFFSET } from '../content/markdown/page.ts';
import { imageDescription } from '../content/markdown/images.ts';
import { documentAnchors, headingAnchor } from '../content/markdown/extract.ts';
import { newViewBudget, type SpecModel, type ViewBudget } from '../content/openapi/view.ts';
import { renderOperationBlock, renderSchemasBlock, renderWebhookBlock } from './render-openapi.ts';
import { sanitizeVerbatimHtml } from './verbatim-html.ts';

/*
 * GitBook document JSON (src/content/markdown/types.ts) to HTML, for published sites.
 *
 * Hand-written on purpose: no library renders GitBook's document format (GitBook's own
 * renderer is a React app bound to its API client), and going through markdown and a
 * markdown-to-HTML library would lose what markdown cannot say (tabs, hints, expandables,
 * colors, dark-mode images) and would have to re-parse the HTML GitBook's markdown embeds.
 * The document is a small closed tree, so one switch per node kind does it.
 *
 * Safety: every text and attribute goes through escapeHtml; every URL through safeUrl
 * (no `javascript:`); the only HTML from a document emitted as HTML is a verbatim markup
 * block's, and it goes through sanitize-html first. Unknown node kinds
 * render their text content, or nothing.
 */

/** Where references point on the published site; null when the target is not on it. */
export interface RenderLinks {
  /** Published URL of a page (of `space`, or of the space being rendered). */
  page(pageId: string, spaceId?: string): string | null;
  /** Published URL of a space's first page, when the space is on the site. */
  space(spaceId: string): string | null;
  /** A signed download URL of a file of the space being rendered. */
  file(fileId: string, spaceId?: string): { url: string; name: string } | null;
  /** The latest version of an OpenAPI spec of the site's organization, by slug (absent: none). */
  openapi?(spec: string): SpecModel | null;
  /** Title of a page, for mentions (which show the page's title). */
  pageTitle?(pageId: string, spaceId?: string): string | null;
  /**
   * A relative URL the document still holds as written (in HTML kept verbatim, or a link the
   * import could not bind), read against the page's file in git: the published URL of the
   * page or file it names; null when it names neither.
   */
  relative?(href: string): string | null;
  /**
   * A relative URL naming a markdown file that is no page of the space (a file SUMMARY.md
   * does not list, or none at all): that file's path, shown as the link's title; the link
   * renders as its text with no href (content/markdown/paths.ts missingPagePath). null otherwise.
   */
  unresolved?(href: string): string | null;
}

/**
 * A URL written relative to the page's file or its content root (`/path.md`, as GitHub reads
 * it); not `#anchor`, `//host` or `scheme:`. What the page's links resolve to nothing stays as written.
 */
const RELATIVE_URL = /^(?![a-z][a-z0-9+.-]*:|\/\/|#)./i;

/** A URL as written, or where it points on the site when it is relative and names a page or file there. */
function resolvedUrl(url: string, state: State): string {
  return (RELATIVE_URL.test(url) && state.links.relative?.(url)) || url;
}

/** The markdown file a relative URL names that is no page of the space (RenderLinks.unresolved), if it is one. */
function missingPage(url: string, state: State): string | null {
  return RELATIVE_URL.test(url) ? (state.links.unresolved?.(url) ?? null) : null;
}

/** The title naming the markdown file a link leads to that is no page of the site. */
const unresolvedTitle = (path: string) => `title="${escapeHtml(`Not a page of this site: ${path}`)}"`;

/** The text of a link to a markdown file that is no page: no href, the link as written kept in `data-unresolved-link`, its target named in the title. */
function unresolvedLink(written: string, path: string, body: string): string {
  return `<span data-unresolved-link="${escapeHtml(written)}" ${unresolvedTitle(path)}>${body}</span>`;
}

/**
 * Relative `href`/`src` attributes of verbatim HTML, pointed where they lead on the site; an
 * `href` naming a markdown file that is no page becomes a title naming it (the anchor shows its text).
 */
function resolveHtmlUrls(html: string, state: State): string {
  if (!state.links.relative) return html;
  return mapUrlAttributes(html, ({ whole, lead, name, value: written }) => {
    const url = RELATIVE_URL.test(written) ? state.links.relative!(written) : null;
    const missing = !url && name === 'href' ? missingPage(written, state) : null;
    if (missing) return ` data-unresolved-link="${escapeHtml(written)}" ${unresolvedTitle(missing)}`;
    return url ? `${lead}"${escapeHtml(url)}"` : whole;
  });
}

export interface OutlineEntry {
  id: string;
  text: string;
  level: 1 | 2 | 3;
}

export interface RenderedDocument {
  html: string;
  /** The document's headings, for the "On this page" outline. */
  outline: OutlineEntry[];
}

interface State {
  links: RenderLinks;
  outline: OutlineEntry[];
  ids: Set<string>;
  /** Heading and expandable ids, from the anchor function the link report uses too. */
  anchors: Map<Block, string>;
  /** Makes tab group names unique within a page. */
  counter: number;
  /** What the page's OpenAPI blocks may expand, together. */
  openapiBudget: ViewBudget;
}

const noLinks: RenderLinks = { page: () => null, space: () => null, file: () => null };

/** Renders a document's blocks to HTML, and collects its outline. */
export function renderDocument(document: Document | undefined, links: RenderLinks = noLinks): RenderedDocument {
  const anchors = document ? documentAnchors(document) : new Map<Block, string>();
  const state: State = { links, outline: [], ids: new Set(anchors.values()), anchors, counter: 0, openapiBudget: newViewBudget() };
  const html = document ? blocks(document.nodes ?? [], state) : '';
  return { html, outline: state.outline };
}

function blocks(nodes: readonly Block[], state: State): string {
  let out = '';
  for (const node of nodes) out += block(node, state);
  return out;
}

function alignStyle(align: string | undefined): string {
  return align === 'center' || align === 'end' ? ` style="text-align:${align === 'end' ? 'right' : 'center'}"` : '';
}

function block(node: Block, state: State): string {
  switch (node.type) {
    case 'paragraph':
      return `<p${alignStyle(node.data?.align)}>${inlines(node.nodes, state)}</p>\n`;
    case 'heading-1':
    case 'heading-2':
    case 'heading-3': {
      const level = Number(node.type.slice(-1)) as 1 | 2 | 3;
      const text = plainText(node.nodes);
      const id = state.anchors.get(node) ?? uniqueId(headingAnchor(text), state);
      state.outline.push({ id, text, level });
      // The page title is the h1: document headings start at h2.
      const tag = `h${level + 1}`;
      return `<${tag} id="${escapeHtml(id)}"${alignStyle(node.data?.align)}>${inlines(node.nodes, state)}<a class="anchor" href="#${escapeHtml(id)}" aria-label="Link to this section">#</a></${tag}>\n`;
    }
    case 'divider':
      return '<hr>\n';
    case 'list-unordered':
      return `<ul>${listItems(node.nodes, state, false)}</ul>\n`;
    case 'list-ordered': {
      const start = Number.isInteger(node.data?.start) && node.data.start !== 1 ? ` start="${node.data.start}"` : '';
      return `<ol${start}>${listItems(node.nodes, state, false)}</ol>\n`;
    }
    case 'list-tasks':
      return `<ul class="tasks">${listItems(node.nodes, state, true)}</ul>\n`;
    case 'list-item':
      return `<li>${blocks(node.nodes, state)}</li>`;
    case 'code':
      return code(node, state);
    case 'code-line':
      return `<pre><code>${inlines(node.nodes, state)}</code></pre>\n`;
    case 'blockquote':
      return `<blockquote>${blocks(node.nodes, state)}</blockquote>\n`;
    case 'hint': {
      const style = HINT_STYLES.has(node.data?.style) ? node.data.style : 'info';
      return `<div class="hint hint-${style}" role="note">${blocks(node.nodes, state)}</div>\n`;
    }
    case 'math':
      return `<div class="math" data-formula="${escapeHtml(node.data?.formula ?? '')}"><code>${escapeHtml(node.data?.formula ?? '')}</code></div>\n`;
    case 'embed': {
      // An embed's url is a plain string (GitBook's schema): one written relative to the page leads where a link so written does.
      const written: string = typeof node.data?.url === 'string' ? node.data.url : '';
      const caption = (node.fragments ?? []).find((f: { fragment?: string }) => f.fragment === 'caption')?.nodes?.[0]?.nodes;
      const text = caption && plainText(caption).trim() !== '' ? `<div class="embed-caption">${inlines(caption, state)}</div>` : '';
      const missing = written ? missingPage(written, state) : null;
      if (missing) return `<div class="embed">${unresolvedLink(written, missing, escapeHtml(written))}${text}</div>\n`;
      const target = written ? refTarget({ kind: 'url', url: written }, state) : null;
      return target ? `<div class="embed"><a href="${escapeHtml(target.url)}"${relOf(target.url)}>${escapeHtml(written)}</a>${text}</div>\n` : text;
    }
    case 'file': {
      const file = node.data?.ref ? state.links.file(node.data.ref.file, node.data.ref.space) : null;
      const caption = (node.fragments ?? []).find((f: { fragment?: string }) => f.fragment === 'caption')?.nodes?.[0]?.nodes;
      const text = caption && plainText(caption).trim() !== '' ? `<div class="file-caption">${inlines(caption, state)}</div>` : '';
      return file ? `<div class="file"><a href="${escapeHtml(file.url)}" download>${escapeHtml(file.name)}</a>${text}</div>\n` : text;
    }
    case 'content-ref': {
      const written = node.data?.ref?.kind === 'url' ? node.data.ref.url : '';
      const missing = written ? missingPage(written, state) : null;
      if (missing) return `<div class="content-ref">${unresolvedLink(written, missing, escapeHtml(node.data.text || written))}</div>\n`;
      const target = refTarget(node.data?.ref, state);
      if (!target) return '';
      // Left as an address (a page gone: GitBook's `[Broken link](/broken/pages/…)`), it shows the text it was written with, as a mention does.
      const label = node.data?.ref?.kind === 'url' && node.data.text ? node.data.text : target.label;
      return `<div class="content-ref"><a href="${escapeHtml(target.url)}">${escapeHtml(label)}</a></div>\n`;
    }
    case 'images': {
      const align = ['left', 'right', 'center'].includes(node.data?.align ?? '') ? ` images-${node.data.align}` : '';
      return `<div class="images${align}">${node.nodes.map((image) => figure(image, state)).join('')}</div>\n`;
    }
    case 'image':
      return `<div class="images">${figure(node, state)}</div>\n`;
    case 'drawing': {
      const file = node.data?.ref ? state.links.file(node.data.ref.file, node.data.ref.space) : null;
      return file ? `<div class="images"><figure><img class="drawing" src="${escapeHtml(file.url)}" alt=""></figure></div>\n` : '';
    }
    case 'expandable': {
      const [title, body] = node.fragments ?? [];
      const summary = title?.nodes?.[0] ? inlines(title.nodes[0].nodes, state) : '';
      const anchor = state.anchors.get(node);
      return `<details class="expandable"${anchor ? ` id="${escapeHtml(anchor)}"` : ''}${node.data?.defaultExpanded ? ' open' : ''}><summary>${summary}</summary><div>${blocks(body?.nodes ?? [], state)}</div></details>\n`;
    }
    case 'tabs': {
      const group = `tabs-${++state.counter}`;
      let out = `<div class="tabs">`;
      node.nodes.forEach((item, i) => {
        const id = `${group}-${i}`;
        out += `<input type="radio" class="tab-radio" name="${group}" id="${id}"${i === 0 ? ' checked' : ''}>`;
        out += `<label class="tab-label" for="${id}">${escapeHtml(item.data?.title || `Tab ${i + 1}`)}</label>`;
        out += `<div class="tab-panel">${blocks(item.nodes, state)}</div>`;
      });
      return `${out}</div>\n`;
    }
    case 'tabs-item':
      return blocks(node.nodes, state);
    case 'stepper':
      return `<ol class="stepper">${node.nodes.map((step) => `<li>${blocks(step.nodes, state)}</li>`).join('')}</ol>\n`;
    case 'stepper-step':
      return blocks(node.nodes, state);
    case 'updates':
      return `<div class="updates">${node.nodes.map((u) => `<section class="update"><p class="update-date"><time datetime="${escapeHtml(u.data?.date ?? '')}">${escapeHtml(String(u.data?.date ?? '').slice(0, 10))}</time></p>${blocks(u.nodes, state)}</section>`).join('')}</div>\n`;
    case 'columns':
      return `<div class="columns">${node.nodes.map((c) => `<div class="column">${blocks(c.nodes, state)}</div>`).join('')}</div>\n`;
    case 'update':
    case 'column':
      return blocks(node.nodes, state);
    case 'openapi-operation': {
      const spec = node.data?.ref?.spec ?? '';
      const options = { uid: `oa-${++state.counter}`, headless: (node.data as { headless?: boolean })?.headless, budget: state.openapiBudget };
      return renderOperationBlock(state.links.openapi?.(spec) ?? null, spec, node.data?.path ?? '', node.data?.method ?? '', options);
    }
    case 'table':
      return table(node, state);
    case 'integration':
      return markup(node, state);
    default: {
      // GitBook's openapi-schemas and openapi-webhook blocks (not written by the markdown engine).
      const other = node as unknown as { type: string; data?: { ref?: { spec?: string }; schemas?: string[]; title?: string; name?: string; method?: string; headless?: boolean } };
      const spec = other.data?.ref?.spec ?? '';
      if (other.type === 'openapi-schemas') return renderSchemasBlock(state.links.openapi?.(spec) ?? null, spec, other.data?.schemas, other.data?.title, state.openapiBudget);
      if (other.type === 'openapi-webhook') {
        return renderWebhookBlock(state.links.openapi?.(spec) ?? null, spec, other.data?.name ?? '', other.data?.method ?? 'post', { uid: `oa-${++state.counter}`, headless: other.data?.headless, budget: state.openapiBudget });
      }
      return '';
    }
  }
}

/** Quire's verbatim markup: HTML sanitized; an unknown `{% tag %}`'s content rendered without its tags. */
function markup(node: Extract<Block, { type: 'integration' }>, state: State): string {
  const source = markupOf(node);
  if (source === null) return '';
  if (node.data.block === 'html') {
    // A GitBook table kept verbatim because the document cannot hold it as written (a card
    // linking outside the space) is still shown as the table it is: cards, hidden columns
    // hidden. Its cells become text and links, escaped as any table's.
    const kept = readHtmlTable(source, { tokens: [], definitions: new Map() });
    if (kept) return table(kept, state);
    return `<div class="html-block">${sanitizeVerbatimHtml(resolveHtmlUrls(source, state))}</div>\n`;
  }
  // GitBook's integration block (`{% @github-files/github-code-block url="…" %}`) needs the integration: its URL is shown.
  const integration = readLiquidTag(source);
  const url = integration?.name.startsWith('@') ? safeUrl(integration.attrs.url) : null;
  if (url) return `<div class="integration-block"><a href="${escapeHtml(url)}" rel="noopener">${escapeHtml(url)}</a></div>\n`;
  const inner = source.replace(/\{%-?[\s\S]*?-?%\}/g, '\n\n');
  return `<div class="tag-block">${blocks(markdownToDocument(inner, { headingOffset: PAGE_HEADING_OFFSET }).nodes, state)}</div>\n`;
}

function listItems(items: readonly Block[], state: State, tasks: boolean): string {
  let out = '';
  for (const item of items) {
    if (item.type !== 'list-item') {
      out += `<li>${block(item, state)}</li>`;
      continue;
    }
    const box = tasks ? `<input type="checkbox" disabled${item.data?.checked ? ' checked' : ''}> ` : '';
    // A single paragraph is the item's text (a tight list item).
    const only = item.nodes.length === 1 && item.nodes[0].type === 'paragraph' ? item.nodes[0] : null;
    out += only ? `<li>${box}${inlines(only.nodes, state)}</li>` : `<li>${box}${blocks(item.nodes, state)}</li>`;
  }
  return out;
}

/**
 * A code block: highlighted on the server (src/site/highlight.ts) when its language is
 * known, with its title, a copy button (the page script copies the code's text), line
 * numbers when the block asks (CSS counters: copying leaves them out), marked lines, and
 * long lines wrapped or scrolled as the block says.
 */
function code(node: CodeBlock, state: State): string {
  const syntax = node.data?.syntax && /^[\w+#.-]{1,40}$/.test(node.data.syntax) ? node.data.syntax : '';
  const colored = syntax ? highlightLines(node.nodes.map((line) => plainText(line.nodes)).join('\n'), syntax) : null;
  const lines = node.nodes.map((line, i) => {
    const body = colored?.[i] ?? inlines(line.nodes, state);
    return `<span class="line${line.data?.highlighted ? ' marked' : ''}">${body}</span>`;
  });
  const title = node.data?.title ? `<span class="code-title">${escapeHtml(node.data.title)}</span>` : '';
  const cls = syntax ? ` class="language-${escapeHtml(syntax)}"` : '';
  const classes = ['shiki', node.data?.overflow === 'wrap' ? 'wrap' : '', node.data?.lineNumbers ? 'numbered' : ''].filter(Boolean).join(' ');
  return (
    `<div class="code"><div class="code-head">${title}<button type="button" class="copy-code" aria-label="Copy code">Copy</button></div>` +
    `<pre class="${classes}" tabindex="0"><code${cls}>${lines.join('\n')}</code></pre></div>\n`
  );
}

function imageUrl(ref: ImageRef | undefined, state: State): string | null {
  if (!ref) return null;
  if (ref.kind === 'url') return safeUrl(resolvedUrl(ref.url, state));
  if (ref.kind === 'file') return state.links.file(ref.file, ref.space)?.url ?? null;
  return null;
}

/** An image, with its dark-mode twin shown only in the dark theme. */
function img(ref: ImageRef | undefined, refDark: ImageRef | undefined, alt: string, extra: string, state: State): string {
  const src = imageUrl(ref, state);
  if (!src) return '';
  const dark = imageUrl(refDark, state);
  const alt_ = escapeHtml(alt);
  if (!dark) return `<img src="${escapeHtml(src)}" alt="${alt_}"${extra} loading="lazy">`;
  return (
    `<img class="only-light" src="${escapeHtml(src)}" alt="${alt_}"${extra} loading="lazy">` +
    `<img class="only-dark" src="${escapeHtml(dark)}" alt="${alt_}"${extra} loading="lazy">`
  );
}

function figure(image: ImageBlock, state: State): string {
  const width = Number.isFinite(image.data?.width) ? ` width="${Math.round(image.data.width as number)}"` : '';
  const picture = img(image.data?.ref, image.data?.refDark, imageDescription(image), width, state);
  if (!picture) return '';
  const caption = (image.fragments ?? []).find((f) => f.fragment === 'caption')?.nodes?.[0]?.nodes;
  const figcaption = caption && plainText(caption).trim() !== '' ? `<figcaption>${inlines(caption, state)}</figcaption>` : '';
  return `<figure>${picture}${figcaption}</figure>`;
}

function table(node: TableBlock, state: State): string {
  const { view, records, definition } = node.data ?? ({} as TableBlock['data']);
  const columns = (view?.columns ?? []).filter((id) => definition?.[id]);
  if (columns.length === 0) return '';
  const fragments = new Map((node.fragments ?? []).map((f) => [f.fragment, f.nodes]));
  const align = (id: string) => {
    const d = definition[id];
    const a = d.type === 'text' ? d.textAlignment : 'left';
    return a === 'center' || a === 'right' ? ` style="text-align:${a}"` : '';
  };
  const cell = (value: TableRecord['values'][string] | undefined) => {
    if (Array.isArray(value)) return '';
    if (value && typeof value === 'object') {
      const target = refTarget(value, state);
      return target ? `<a href="${escapeHtml(target.url)}">${escapeHtml(target.label)}</a>` : '';
    }
    const paragraphs = (typeof value === 'string' && fragments.get(value)) || [];
    return paragraphs.map((p) => inlines(p.nodes ?? [], state)).join('<br>');
  };
  const sorted = Object.values(records ?? {}).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
  if (view.type === 'cards') {
    // Each record is a card; the hidden target column makes the whole card a link, and the
    // hidden cover column (a files column) puts its first file above the card's text.
    const cards = sorted.map((record) => {
      const files = view.coverDefinition ? record.values?.[view.coverDefinition] : undefined;
      const file = Array.isArray(files) && typeof files[0] === 'string' ? files[0] : undefined;
      const src = file ? imageUrl({ kind: 'file', file }, state) : null;
      const cover = src ? `<img class="card-cover" src="${escapeHtml(src)}" alt="" loading="lazy">` : '';
      const body = cover + columns.map((id) => `<div class="card-cell">${cell(record.values?.[id])}</div>`).join('');
      const value = view.targetDefinition ? record.values?.[view.targetDefinition] : undefined;
      const target = value && typeof value === 'object' && !Array.isArray(value) ? refTarget(value, state) : null;
      return target ? `<a class="card" href="${escapeHtml(target.url)}">${body}</a>` : `<div class="card">${body}</div>`;
    });
    return `<div class="cards">${cards.join('')}</div>\n`;
  }
  const head = view.hideHeader ? '' : `<thead><tr>${columns.map((id) => `<th${align(id)}>${fragments.has(`header-${id}`) ? cell(`header-${id}`) : escapeHtml(definition[id].title ?? '')}</th>`).join('')}</tr></thead>`;
  const rows = sorted
    .map((record) => `<tr>${columns.map((id) => `<td${align(id)}>${cell(record.values?.[id])}</td>`).join('')}</tr>`)
    .join('');
  return `<div class="table"><table>${head}<tbody>${rows}</tbody></table></div>\n`;
}

function inlines(nodes: readonly (InlineContent | InlineImage)[] | undefined, state: State): string {
  let out = '';
  for (const node of nodes ?? []) out += inline(node, state);
  return out;
}

function inline(node: InlineContent, state: State): string {
  if (node.object === 'text') {
    let out = '';
    for (const leaf of node.leaves ?? []) out += renderLeaf(leaf);
    return out;
  }
  if (node.object !== 'inline') return '';
  switch (node.type) {
    case 'mention': {
      const target = refTarget(node.data?.ref, state);
      const ref = node.data?.ref;
      // A mention whose target is gone still shows the text it was written with; one left as
      // an address (GitBook's `broken-reference`, a path that resolved to nothing) shows that text too.
      if (!target) return escapeHtml(node.data?.text ?? '');
      const label = (ref?.kind === 'page' || ref?.kind === 'anchor') && ref.page ? (state.links.pageTitle?.(ref.page, ref.space) ?? target.label) : ref?.kind === 'url' && node.data.text ? node.data.text : target.label;
      return `<a class="mention" href="${escapeHtml(target.url)}">${escapeHtml(label)}</a>`;
    }
    case 'button': {
      const target = refTarget(node.data?.ref, state);
      const label = escapeHtml(node.data?.label ?? '');
      const kind = node.data?.kind === 'secondary' ? 'secondary' : 'primary';
      if (target) return `<a class="button button-${kind}" href="${escapeHtml(target.url)}">${label}</a>`;
      // An action (ask, search, select) needs GitBook's app; a site shows the button's label as a button that does nothing.
      return `<span class="button button-${kind}">${label}</span>`;
    }
    case 'link': {
      const body = inlines(node.nodes, state);
      const written = node.data?.ref?.kind === 'url' ? node.data.ref.url : '';
      const missing = written ? missingPage(written, state) : null;
      if (missing) return unresolvedLink(written, missing, body);
      const target = refTarget(node.data?.ref, state);
      if (!target) return body;
      return `<a href="${escapeHtml(target.url)}"${relOf(target.url)}>${body}</a>`;
    }
    case 'inline-image': {
      const cls = node.data?.size === 'line' ? ' class="inline-image line"' : ' class="inline-image"';
      const picture = img(node.data?.ref, node.data?.refDark, imageDescription(node), cls, state);
      // A figure where no image block may stand (a list item, a quote): its caption is shown under it, as GitBook shows it.
      const caption = node.data?.caption?.trim();
      return picture && caption ? `<span class="inline-figure">${picture}<span class="inline-figcaption">${escapeHtml(caption)}</span></span>` : picture;
    }
    case 'inline-math':
      return `<code class="math">${escapeHtml(node.data?.formula ?? '')}</code>`;
    case 'expression':
      // Unresolved variable references (the service resolves those it can before rendering).
      return `<code class="expression">${escapeHtml(node.data?.expression ?? '')}</code>`;
    case 'icon':
      return `<span class="icon" data-icon="${escapeHtml(node.data?.icon ?? '')}" aria-hidden="true"></span>`;
    case 'emoji': {
      const points = String(node.data?.code ?? '').split('-').map((part) => parseInt(part, 16));
      return points.every((p) => Number.isFinite(p) && p > 0 && p <= 0x10ffff) ? escapeHtml(String.fromCodePoint(...points)) : '';
    }
    default:
      return '';
  }
}

const SIMPLE_MARKS: Record<string, string> = {
  bold: 'strong',
  italic: 'em',
  strikethrough: 's',
  code: 'code',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
};

const COLORS = new Set<TextColor>([
  'green', 'blue', 'red', 'orange', 'yellow', 'purple', 'pink', 'violet', 'cyan',
  '$primary', '$info', '$success', '$warning', '$danger', '$tint',
]);

function renderLeaf(leaf: Leaf): string {
  // A newline in a leaf is a hard line break (a soft one is read as a space): HTML shows it only as <br>.
  let out = escapeHtml(leaf.text ?? '').replace(/\n/g, '<br>');
  if (out === '') return '';
  for (const mark of (leaf.marks ?? []) as Mark[]) {
    if (mark.type === 'color') {
      const classes: string[] = [];
      if (COLORS.has(mark.data?.text)) classes.push(`color-${mark.data.text.replace('$', '')}`);
      if (COLORS.has(mark.data?.background)) classes.push(`bg-${mark.data.background.replace('$', '')}`);
      if (classes.length > 0) out = `<span class="${classes.join(' ')}">${out}</span>`;
      continue;
    }
    const tag = SIMPLE_MARKS[mark.type];
    if (tag) out = `<${tag}>${out}</${tag}>`;
  }
  return out;
}

/** A link to another site opens no window onto this one. */
const relOf = (url: string) => (/^https?:/i.test(url) ? ' rel="noopener"' : '');

/** Where a reference points, and a label for cards; null when nowhere on this site. */
function refTarget(ref: ContentRef | undefined, state: State): { url: string; label: string } | null {
  if (!ref) return null;
  switch (ref.kind) {
    case 'url': {
      // A markdown file that is no page of the space leads nowhere on the site.
      if (missingPage(ref.url, state)) return null;
      const url = safeUrl(resolvedUrl(ref.url, state));
      return url ? { url, label: ref.url } : null;
    }
    case 'page': {
      const url = state.links.page(ref.page, ref.space);
      return url ? { url, label: url } : null;
    }
    case 'anchor': {
      const anchor = encodeURIComponent(ref.anchor);
      if (!ref.page) return { url: `#${anchor}`, label: ref.anchor };
      const url = state.links.page(ref.page, ref.space);
      return url ? { url: `${url}#${anchor}`, label: ref.anchor } : null;
    }
    case 'file': {
      const file = state.links.file(ref.file, ref.space);
      return file ? { url: file.url, label: file.name } : null;
    }
    case 'space': {
      const url = state.links.space(ref.space);
      return url ? { url, label: url } : null;
    }
    default:
      return null;
  }
}

/** The text of inline content, marks dropped. */
export function plainText(nodes: readonly (InlineContent | InlineImage)[] | undefined): string {
  let out = '';
  for (const node of nodes ?? []) {
    if (node.object === 'text') for (const leaf of node.leaves ?? []) out += leaf.text ?? '';
    else if (node.object === 'inline' && node.type === 'link') out += plainText(node.nodes);
    else if (node.object === 'inline' && node.type === 'expression') out += node.data?.expression ?? '';
  }
  return out;
}

function uniqueId(base: string, state: State): string {
  let id = base;
  for (let n = 1; state.ids.has(id); n++) id = `${base}-${n}`;
  state.ids.add(id);
  return id;
}
