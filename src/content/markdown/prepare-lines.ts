/*
 * Where a line of markdown stands, for the pre-pass (prepare.ts): its container prefix (quote
 * markers, indentation, the list markers it opens), the prefix its container's next lines
 * continue at, columns with tabs to the next multiple of four, and whether a line stays in a
 * container as GFM reads it. No tags here: only CommonMark's containers and fences.
 */

import { htmlBlockNames, htmlRawNames } from 'micromark-util-html-tag-name';

export const FENCE = /^(`{3,}|~{3,})/;

const BLOCK_NAMES = new Set(htmlBlockNames);
const RAW_NAMES = new Set(htmlRawNames);
const ATTRIBUTE = String.raw`\s+[A-Za-z_:][\w.:-]*(?:\s*=\s*(?:[^\s"'=<>\x60]+|'[^']*'|"[^"]*"))?`;
const COMPLETE_TAG = new RegExp(String.raw`^(?:<([A-Za-z][A-Za-z0-9-]*)(?:${ATTRIBUTE})*\s*\/?>|<\/([A-Za-z][A-Za-z0-9-]*)\s*>)[ \t]*$`);

/**
 * Whether a line (its container prefix taken off) opens an HTML block that runs to the next
 * blank line: a block-level tag name (CommonMark's kind 6), or a complete tag alone on its line
 * (kind 7), which cannot interrupt a paragraph (`afterBlank`).
 */
export function startsHtmlBlock(rest: string, afterBlank: boolean): boolean {
  const name = /^<\/?([A-Za-z][A-Za-z0-9-]*)(?=[\s/>]|$)/.exec(rest)?.[1].toLowerCase();
  if (name && BLOCK_NAMES.has(name)) return true;
  const complete = COMPLETE_TAG.exec(rest);
  return afterBlank && complete !== null && !RAW_NAMES.has((complete[1] ?? complete[2]).toLowerCase());
}

/** Container prefix of a line: quote markers, indentation and the list markers of items it opens, in any nesting. */
export const PREFIX = /^(?:[ \t]*(?:>[ \t]?|(?:[*+-]|\d{1,9}[.)])[ \t]+(?=\S)))*[ \t]*/;
export const LIST_MARKER = /(?:[*+-]|\d{1,9}[.)])(?=[ \t])/g;

/** The prefix for the lines after the first: list markers become indentation. */
export function continuation(prefix: string): string {
  return prefix.replace(LIST_MARKER, (marker) => ' '.repeat(marker.length));
}

/**
 * Whether `line` stays in a container whose lines continue at `container` (GFM): it has every
 * quote marker (a blank line ends a quote) and, past the last, the list items' indentation
 * (blank lines stay in a list item). Tabs count to the next multiple of four.
 */
export function continuesContainer(line: string, container: string): boolean {
  if (container === '') return true;
  const parts = container.split('>');
  let rest = line;
  for (let p = 0; p < parts.length - 1; p++) {
    const marker = /^[ \t]*>/.exec(rest);
    if (!marker) return false;
    rest = rest.slice(marker[0].length);
  }
  if (rest.trim() === '') return true;
  // After a quote marker one space is the marker's: `>x` stays in the quote.
  const need = columns(parts[parts.length - 1]) - (parts.length > 1 ? 1 : 0);
  return columns(/^[ \t]*/.exec(rest)![0]) >= need;
}

/** The last answer of `listItemAround`: scans stop at it, so a page of indented fences is read in linear time. */
export type ListItemMemo = { line: number; at: number; container: string };

/**
 * The container an indented line at `i` continues (its prefix only spaces): the content
 * indentation of the list item it sits in, found at the nearest line less indented above it,
 * or '' when that line opens no list item holding it (indentation at the top level, or in a
 * tag's body, contains nothing: GFM ends a fence there only at its closing fence).
 */
export function listItemAround(lines: string[], i: number, prefix: string, memo: ListItemMemo): string {
  const at = columns(prefix);
  const answer = (container: string) => {
    Object.assign(memo, { line: i, at, container });
    return container;
  };
  for (let j = i - 1; j >= 0 && at > 0; j--) {
    // Every line from here to `i` is at least as indented: the line `memo` answered for has this answer.
    if (j === memo.line && memo.at === at) return answer(memo.container);
    if (lines[j].trim() === '') continue;
    const lead = /^[ \t]*/.exec(lines[j])![0];
    if (columns(lead) >= at) continue;
    const item = /^[ \t]*(?:[*+-]|\d{1,9}[.)])(?:[ \t]+|$)/.exec(lines[j]);
    const content = item ? columns(item[0].trimEnd()) + Math.max(1, Math.min(columns(item[0]) - columns(item[0].trimEnd()), 4)) : 0;
    return answer(item && content <= at ? ' '.repeat(content) : '');
  }
  return answer('');
}

/** Whether a line continuing at `inner` is inside a block whose lines continue at `at` (tabs or spaces alike). */
export const within = (inner: string, at: string) => inner.startsWith(at) || (!inner.includes('>') && !at.includes('>') && columns(inner) >= columns(at));

/** The column after `ch` written at column `at` (a tab runs to the next multiple of four). */
const columnAfter = (at: number, ch: string) => (ch === '\t' ? at + 4 - (at % 4) : at + 1);

export const columns = (space: string) => [...space].reduce(columnAfter, 0);

/** `line` with up to `count` columns of its leading spaces and tabs taken off (a tab split keeps its rest as spaces). */
export function withoutColumns(line: string, count: number): string {
  let at = 0;
  let taken = 0;
  while (taken < line.length && (line[taken] === ' ' || line[taken] === '\t')) {
    const next = columnAfter(at, line[taken]);
    if (next > count) return ' '.repeat(next - count) + line.slice(taken + 1);
    at = next;
    taken++;
  }
  return line.slice(taken);
}

export function closesFence(rest: string, fence: { char: string; length: number }): boolean {
  const trimmed = rest.trim();
  return trimmed.length >= fence.length && trimmed === fence.char.repeat(trimmed.length);
}

/** A line with the prefix of its container (as its first line wrote it) taken off. */
export function stripPrefix(line: string, prefix: string): string {
  const cont = continuation(prefix);
  if (line.startsWith(cont)) return line.slice(cont.length);
  const lastQuote = cont.lastIndexOf('>');
  const quoteDepth = (cont.match(/>/g) ?? []).length;
  let rest = line;
  for (let d = 0; d < quoteDepth; d++) rest = rest.replace(/^[ \t]*>[ \t]?/, '');
  const indent = (lastQuote >= 0 ? cont.slice(lastQuote + 1).replace(/^[ \t]/, '') : cont).length;
  return rest.replace(new RegExp(`^[ \\t]{0,${indent}}`), '');
}
