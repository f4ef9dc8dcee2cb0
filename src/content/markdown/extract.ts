/*
 * Reading facts out of a document: every reference it makes (for link checks, backlinks and
 * file usage) and its plain text per heading section (for the search index).
 */
import slugify from '@sindresorhus/slugify';
import { textOf } from './leaves.ts';
import type { Block, ContentRef, Document, DocumentNode, InlineContent } from './types.ts';

export interface DocumentLink {
  kind: ContentRef['kind'];
  /** The URL, page id, file id, anchor, space id, spec slug, ... the reference points at. */
  target: string;
  ref: ContentRef;
  /** The node that makes the reference. */
  source: 'link' | 'inline-image' | 'image' | 'content-ref' | 'embed' | 'file' | 'openapi-operation' | 'button' | 'table' | 'mention';
  /** Key of that node. */
  key?: string;
}

/** Every reference in a document, in document order (dark-mode image sources included). */
export function extractLinks(document: Document): DocumentLink[] {
  const links: DocumentLink[] = [];
  const add = (ref: ContentRef, source: DocumentLink['source'], key: string | undefined) => links.push({ kind: ref.kind, target: targetOf(ref), ref, source, key });
  const visit = (node: DocumentNode) => {
    if (node.object === 'text') return;
    switch (node.type) {
      case 'link':
        add(node.data.ref, 'link', node.key);
        break;
      case 'button':
        if (node.data.ref) add(node.data.ref, 'button', node.key);
        break;
      case 'mention':
        add(node.data.ref, 'mention', node.key);
        break;
      case 'table':
        // Link cells (card targets) hold references too.
        for (const record of Object.values(node.data.records)) {
          for (const value of Object.values(record.values)) {
            // A files cell (a card's cover) holds file ids.
            if (Array.isArray(value)) for (const file of value) add(typeof file === 'string' ? { kind: 'file', file } : file, 'table', node.key);
            else if (value && typeof value === 'object') add(value, 'table', node.key);
          }
        }
        break;
      case 'inline-image':
      case 'image':
        add(node.data.ref, node.type, node.key);
        if (node.data.refDark) add(node.data.refDark, node.type, node.key);
        break;
      case 'content-ref':
      case 'file':
      case 'openapi-operation':
        add(node.data.ref, node.type, node.key);
        break;
      case 'drawing':
        add(node.data.ref, 'image', node.key);
        break;
      case 'embed':
        add({ kind: 'url', url: node.data.url }, 'embed', node.key);
        break;
      default: {
        // GitBook's openapi-schemas and openapi-webhook blocks, which the markdown engine does not write.
        const other = node as unknown as { type: string; key?: string; data?: { ref?: ContentRef } };
        if ((other.type === 'openapi-schemas' || other.type === 'openapi-webhook') && other.data?.ref?.kind === 'openapi') add(other.data.ref, 'openapi-operation', other.key);
      }
    }
    for (const child of childrenOf(node)) visit(child);
  };
  document.nodes.forEach(visit);
  return links;
}

function targetOf(ref: ContentRef): string {
  switch (ref.kind) {
    case 'url':
      return ref.url;
    case 'page':
      return ref.page;
    case 'anchor':
      return ref.anchor;
    case 'file':
      return ref.file;
    case 'space':
      return ref.space;
    case 'collection':
      return ref.collection;
    case 'user':
      return ref.user;
    case 'openapi':
      return ref.spec;
    case 'reusable-content':
      return ref.reusableContent;
    case 'tag':
      return ref.tag;
  }
}

/** Child nodes and fragment nodes of any node, in order. */
export function childrenOf(node: DocumentNode): DocumentNode[] {
  const children: DocumentNode[] = [];
  if ('nodes' in node && Array.isArray(node.nodes)) children.push(...(node.nodes as DocumentNode[]));
  if ('fragments' in node && Array.isArray(node.fragments)) for (const f of node.fragments) children.push(...(f.nodes as DocumentNode[]));
  return children;
}

export interface TextSection {
  /** Anchor of the section's heading (its custom id, else a slug of its title, made unique); null before the first heading. */
  headingId: string | null;
  /** Plain text of the heading; empty before the first heading. */
  title: string;
  /** Plain text of the blocks up to the next top-level heading, one block per line. */
  body: string;
}

/** Plain text per top-level heading section; the text before the first heading comes first when there is any. */
export function extractText(document: Document): TextSection[] {
  const sections: TextSection[] = [];
  const anchors = documentAnchors(document);
  let current: { headingId: string | null; title: string; lines: string[] } = { headingId: null, title: '', lines: [] };
  const flush = () => {
    if (current.headingId !== null || current.lines.length > 0) sections.push({ headingId: current.headingId, title: current.title, body: current.lines.join('\n') });
  };
  for (const block of document.nodes) {
    if (block.type === 'heading-1' || block.type === 'heading-2' || block.type === 'heading-3') {
      flush();
      const title = inlineText(block.nodes);
      current = { headingId: anchors.get(block) ?? headingAnchor(title), title, lines: [] };
      continue;
    }
    const text = blockText(block);
    if (text !== '') current.lines.push(text);
  }
  flush();
  return sections;
}

/**
 * The anchor GitBook derives from a heading title: slugified words joined by dashes, `&` read
 * as "and" (`Math & TeX` -> `math-and-tex`), camel case kept whole (`GitBook` -> `gitbook`),
 * leading digits kept (`1. Install` -> `1-install`). Titles in scripts slugify drops keep
 * their letters. The one function behind the link report, the published site's ids and the
 * "on this page" outline.
 */
export function headingAnchor(title: string): string {
  const slug = slugify(title, { decamelize: false });
  if (slug) return slug;
  const letters = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]+/gu, '')
    .trim()
    .replace(/[\s_-]+/g, '-');
  return letters || 'section';
}

/** A custom heading id (`data.id`) is used as the anchor when it is a plain slug. */
const CUSTOM_ID = /^[-a-z0-9.+_]+$/;

/**
 * Every anchor of a document, in document order, made unique with `-1`, `-2`: headings at
 * any depth (lists, tabs, steppers, hints, expandables) and expandable summaries.
 */
export function documentAnchors(document: Document): Map<Block, string> {
  const anchors = new Map<Block, string>();
  const used = new Map<string, number>();
  const walk = (blocks: readonly Block[]) => {
    for (const block of blocks) {
      if (block.type === 'heading-1' || block.type === 'heading-2' || block.type === 'heading-3') {
        const id = block.data.id && CUSTOM_ID.test(block.data.id) ? block.data.id : headingAnchor(inlineText(block.nodes));
        anchors.set(block, uniqueAnchor(id, used));
      } else if (block.type === 'expandable') {
        const [title, body] = block.fragments;
        anchors.set(block, uniqueAnchor(headingAnchor(title.nodes.map((p) => inlineText(p.nodes)).join(' ')), used));
        walk(body.nodes);
      } else if ('nodes' in block && Array.isArray(block.nodes)) {
        walk(block.nodes.filter((n): n is Block => (n as { object?: string }).object === 'block'));
      }
    }
  };
  walk(document.nodes ?? []);
  return anchors;
}

function uniqueAnchor(anchor: string, used: Map<string, number>): string {
  const count = used.get(anchor) ?? 0;
  used.set(anchor, count + 1);
  return count === 0 ? anchor : `${anchor}-${count}`;
}

function inlineText(nodes: InlineContent[]): string {
  return nodes
    .map((n) => {
      if (n.object === 'text') return textOf(n);
      if (n.type === 'link') return inlineText(n.nodes);
      if (n.type === 'button') return n.data.label;
      if (n.type === 'inline-math') return n.data.formula;
      return '';
    })
    .join('')
    .trim();
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'paragraph':
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return inlineText(block.nodes);
    case 'code':
      return block.nodes.map((line) => inlineText(line.nodes.filter((n) => n.object === 'text'))).join('\n');
    case 'code-line':
      return inlineText(block.nodes.filter((n) => n.object === 'text'));
    case 'math':
      return block.data.formula;
    case 'table': {
      const columns = block.data.view.columns;
      const header = columns.map((id) => block.data.definition[id]?.title ?? '').join(' ');
      const cells = block.fragments.map((f) => f.nodes.map(blockText).join(' '));
      return [header, ...cells].filter((t) => t.trim() !== '').join('\n');
    }
    case 'tabs':
      return block.nodes.map((tab) => [tab.data.title ?? '', ...tab.nodes.map(blockText)].filter((t) => t !== '').join('\n')).join('\n');
    case 'expandable':
      return block.fragments.flatMap((f) => f.nodes.map(blockText)).filter((t) => t !== '').join('\n');
    case 'images':
      return block.nodes.map(blockText).filter((t) => t !== '').join('\n');
    case 'image':
      return block.fragments.flatMap((f) => f.nodes.map(blockText)).join('\n');
    case 'file':
    case 'embed':
      return (block.fragments ?? []).flatMap((f) => f.nodes.map(blockText)).join('\n');
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
    case 'list-item':
    case 'blockquote':
    case 'hint':
    case 'tabs-item':
    case 'stepper':
    case 'stepper-step':
    case 'updates':
    case 'update':
    case 'columns':
    case 'column':
      return block.nodes.map(blockText).filter((t) => t !== '').join('\n');
    default:
      return '';
  }
}
