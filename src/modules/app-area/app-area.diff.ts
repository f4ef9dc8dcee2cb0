import { structuredPatch } from 'diff';

/*
 * A change request's changes as people read them: per page, hunks of a line diff of the
 * page's GitBook markdown with three lines of context (jsdiff's structuredPatch).
 */

export interface DiffLine {
  kind: 'add' | 'remove' | 'context';
  text: string;
}

export interface PageDiff {
  id: string;
  title: string;
  /** The title before, when it changed. */
  previousTitle?: string;
  status: 'added' | 'removed' | 'changed';
  /** Undefined when the page was not diffed (too many changed pages); [] when only its title or place changed. */
  hunks?: { oldStart: number; newStart: number; lines: DiffLine[] }[];
}

export function pageDiff(
  before: { id: string; title: string } | undefined,
  after: { id: string; title: string } | undefined,
  oldText: string | undefined,
  newText: string | undefined,
): PageDiff {
  const page = (after ?? before)!;
  const status = !before ? 'added' : !after ? 'removed' : 'changed';
  const diff: PageDiff = { id: page.id, title: page.title, status };
  if (before && after && before.title !== after.title) diff.previousTitle = before.title;
  if (oldText === undefined || newText === undefined) return diff;
  const patch = structuredPatch('before', 'after', withNewline(oldText), withNewline(newText), '', '', { context: 3 });
  diff.hunks = patch.hunks.map((h) => ({
    oldStart: h.oldStart,
    newStart: h.newStart,
    lines: h.lines
      .filter((line) => !line.startsWith('\\'))
      .map((line) => ({ kind: line[0] === '+' ? 'add' : line[0] === '-' ? 'remove' : 'context', text: line.slice(1) }) as DiffLine),
  }));
  return diff;
}

const withNewline = (text: string) => (text === '' || text.endsWith('\n') ? text : `${text}\n`);
