/*
 * SUMMARY.md, GitBook's table of contents in a repository: list items are pages (nested
 * items are subpages), `## Heading` sections are groups, items linking outside are link
 * pages. Read into a tree of entries; written back the way GitBook writes it.
 */

import { decodePath } from '../markdown/paths.ts';

export interface SummaryEntry {
  kind: 'page' | 'group' | 'link';
  title: string;
  /** Page: the file path as written (relative to the SUMMARY's folder, decoded). Link: the URL. */
  href?: string;
  /** Group: the slug its heading's anchor gives (`## Guides <a href="#guides" id="guides"></a>`). */
  slug?: string;
  children: SummaryEntry[];
}

/** A list item: its indentation, then a link `[title](destination)` alone on the line, or text. */
const ITEM = /^(\s*)[*+-][ \t]+(.*?)\s*$/;
const LINK_TEXT = /^\[((?:\\.|[^\]\\])*)\]\(/;
const GROUP = /^##[ \t]+(.*?)[ \t]*#*\s*$/;
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;
/**
 * The empty anchor GitBook writes in a group's heading to keep the group's slug when its title
 * would give another (`## 手册 <a href="#guides" id="guides"></a>`): the slug, not title text.
 */
const GROUP_ANCHOR = /\s*<a\s+(?:href="#[^"]*"\s+)?id="([^"]+)"(?:\s+href="#[^"]*")?\s*><\/a>\s*/i;

/** Reads a SUMMARY.md into its entries (top-level pages and groups, in order). */
export function parseSummary(text: string): SummaryEntry[] {
  const top: SummaryEntry[] = [];
  let section = top;
  // Stack of (indent, children) for nesting list items.
  let stack: { indent: number; children: SummaryEntry[] }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\t/g, '    ');
    const group = GROUP.exec(line);
    if (group) {
      const anchor = GROUP_ANCHOR.exec(group[1]);
      const title = unescape((anchor ? group[1].replace(GROUP_ANCHOR, ' ') : group[1]).trim());
      const entry: SummaryEntry = { kind: 'group', title, ...(anchor ? { slug: anchor[1] } : {}), children: [] };
      top.push(entry);
      section = entry.children;
      stack = [];
      continue;
    }
    if (/^-{3,}\s*$/.test(line) || /^\*{3,}\s*$/.test(line)) continue;
    const item = ITEM.exec(line);
    if (!item) continue;
    const indent = item[1].length;
    const link = linkOf(item[2]);
    const title = unescape((link?.title ?? item[2]).trim());
    const href = link && link.destination !== '' ? decodeDestination(link.destination) : undefined;
    const entry: SummaryEntry =
      href && EXTERNAL.test(href) ? { kind: 'link', title, href, children: [] } : { kind: 'page', title, ...(href ? { href } : {}), children: [] };
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack.length > 0 ? stack[stack.length - 1].children : section;
    parent.push(entry);
    stack.push({ indent, children: entry.children });
  }
  return top;
}

/** Writes entries as GitBook writes SUMMARY.md (a group's `slug` given only where its title would not give it). */
export function writeSummary(entries: SummaryEntry[]): string {
  const lines = ['# Table of contents', ''];
  const items = (list: SummaryEntry[], depth: number) => {
    for (const e of list) {
      lines.push(`${'  '.repeat(depth)}* [${escape(e.title)}](${encodeHref(e)})`);
      items(e.children, depth + 1);
    }
  };
  let pending: SummaryEntry[] = [];
  const flush = () => {
    items(pending, 0);
    pending = [];
  };
  for (const e of entries) {
    if (e.kind !== 'group') {
      pending.push(e);
      continue;
    }
    flush();
    if (lines[lines.length - 1] !== '') lines.push('');
    // Only a slug of slug characters goes into the attribute (one set by hand could close it).
    const anchor = e.slug && /^[A-Za-z0-9_-]+$/.test(e.slug) ? ` <a href="#${e.slug}" id="${e.slug}"></a>` : '';
    lines.push(`## ${e.title}${anchor}`, '');
    items(e.children, 0);
  }
  flush();
  while (lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n') + '\n';
}

function encodeHref(e: SummaryEntry): string {
  if (e.kind === 'link') return e.href ?? '';
  const href = e.href ?? '';
  // Spaces and parentheses would end the link destination, `#` and `?` would start an anchor or a query, `%` an escape: encoded.
  return /[\s()<>#?%]/.test(href) ? encodeURI(href).replace(/[()#?]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`) : href;
}

/**
 * `[title](destination "optional title")` filling the item, as CommonMark reads a link
 * destination: `<…>` may hold spaces and parentheses (`<linux/privesc (linux).md>`), a bare
 * one balanced parentheses and backslash escapes. undefined when the item is not one link.
 */
function linkOf(text: string): { title: string; destination: string } | undefined {
  const open = LINK_TEXT.exec(text);
  if (!open) return undefined;
  let i = open[0].length;
  while (text[i] === ' ' || text[i] === '\t') i++;
  let destination = '';
  if (text[i] === '<') {
    const close = text.indexOf('>', i + 1);
    if (close < 0) return undefined;
    destination = text.slice(i + 1, close);
    i = close + 1;
  } else {
    let depth = 0;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '\\' && i + 1 < text.length) destination += text[++i];
      else if (c === ' ' || c === '\t' || (c === ')' && depth === 0)) break;
      else {
        if (c === '(') depth++;
        else if (c === ')') depth--;
        destination += c;
      }
    }
  }
  const rest = text.slice(i).trim();
  // Nothing but an optional title ("…", '…' or (…), its quotes escaped within: GitBook's page
  // link title `"\"General\" tab"`) may follow before the closing parenthesis.
  if (!/^(?:(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\))\s*)?\)$/s.test(rest)) return undefined;
  return { title: open[1], destination: destination.trim() };
}

/** A page's path as written, its anchor aside, percent-decoded name by name (paths.ts decodePath: `C%23.md` is `C#.md`); a URL as written. */
function decodeDestination(href: string): string {
  return EXTERNAL.test(href) ? href : decodePath(href.replace(/#.*$/, ''));
}

function unescape(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!<>])/g, '$1');
}

function escape(text: string): string {
  return text.replace(/([\\[\]])/g, '\\$1');
}
