/*
 * SUMMARY.md, GitBook's table of contents in a repository: list items are pages (nested
 * items are subpages), `## Heading` sections are groups, items linking outside are link
 * pages. Read into a tree of entries; written back the way GitBook writes it.
 */

export interface SummaryEntry {
  kind: 'page' | 'group' | 'link';
  title: string;
  /** Page: the file path as written (relative to the SUMMARY's folder, decoded). Link: the URL. */
  href?: string;
  children: SummaryEntry[];
}

const ITEM = /^(\s*)[*+-][ \t]+(?:\[((?:\\.|[^\]\\])*)\]\(\s*<?([^)>]*?)>?\s*\)|(.*?))\s*$/;
const GROUP = /^##[ \t]+(.*?)[ \t]*#*\s*$/;
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

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
      const entry: SummaryEntry = { kind: 'group', title: unescape(group[1]), children: [] };
      top.push(entry);
      section = entry.children;
      stack = [];
      continue;
    }
    if (/^-{3,}\s*$/.test(line) || /^\*{3,}\s*$/.test(line)) continue;
    const item = ITEM.exec(line);
    if (!item) continue;
    const indent = item[1].length;
    const title = unescape((item[2] ?? item[4] ?? '').trim());
    const href = item[3] !== undefined ? decode(item[3].trim()) : undefined;
    const entry: SummaryEntry =
      href && EXTERNAL.test(href) ? { kind: 'link', title, href, children: [] } : { kind: 'page', title, ...(href ? { href } : {}), children: [] };
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack.length > 0 ? stack[stack.length - 1].children : section;
    parent.push(entry);
    stack.push({ indent, children: entry.children });
  }
  return top;
}

/** Writes entries as GitBook writes SUMMARY.md. */
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
    lines.push(`## ${e.title}`, '');
    items(e.children, 0);
  }
  flush();
  while (lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n') + '\n';
}

function encodeHref(e: SummaryEntry): string {
  if (e.kind === 'link') return e.href ?? '';
  const href = e.href ?? '';
  // Spaces and parentheses would end the link destination: encode them like GitBook.
  return /[\s()<>]/.test(href) ? encodeURI(href).replace(/\(/g, '%28').replace(/\)/g, '%29') : href;
}

function decode(href: string): string {
  try {
    return decodeURI(href);
  } catch {
    return href;
  }
}

function unescape(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!<>])/g, '$1');
}

function escape(text: string): string {
  return text.replace(/([\\[\]])/g, '\\$1');
}
