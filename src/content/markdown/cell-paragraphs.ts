/*
 * The paragraphs of a table cell written as HTML, one rule for pipe-table cells
 * (read-table.ts, markdown nodes) and HTML tables (html-table.ts, HTML parts) alike.
 */

/** A cell's content cut at its block tags: `<p>`, `<ul>`, `<ol>`, `<li>` and their ends (`structure`), and anything else (`node`). */
export type CellPiece<T> = { structure: string } | { node: T };

/** The block tags a cell's paragraphs are read from, lower-cased, with or without `/`. */
export const CELL_STRUCTURE = /^<\/?(?:p|ul|ol|li)>$/;

/**
 * A cell of `<p>…</p>` paragraphs (nothing but blanks between them), or of paragraphs and
 * `<ul>`/`<ol>` lists, nested or not (`<p>a</p><ul><li>b<ul><li>c</li></ul></li></ul>`,
 * today's GitBook): the content of each paragraph and list item, and whether there was a
 * list; null when the tags do not nest so. A cell holds paragraphs only, so a list item is a
 * paragraph: its words stay, its bullet goes (the page keeps its written form). An item's
 * empty `<p></p>` (GitBook's, before a nested list) is no paragraph.
 */
export function cellParagraphs<T>(pieces: CellPiece<T>[], isBlank: (node: T) => boolean): { paragraphs: T[][]; listed: boolean } | null {
  const paragraphs: T[][] = [];
  let current: T[] | null = null;
  const open: Array<'list' | 'item'> = [];
  let listed = false;
  const inItem = () => open[open.length - 1] === 'item';
  for (const piece of pieces) {
    const tag = 'structure' in piece ? piece.structure : null;
    if (tag === '<ul>' || tag === '<ol>') {
      if (current && !inItem()) return null;
      if (current?.length) paragraphs.push(current);
      current = null;
      if (open.length > 0 && !inItem()) return null;
      open.push('list');
      listed = true;
    } else if (tag === '</ul>' || tag === '</ol>') {
      if (current || open.pop() !== 'list') return null;
    } else if (tag === '<li>') {
      if (current || open[open.length - 1] !== 'list') return null;
      open.push('item');
      current = [];
    } else if (tag === '</li>') {
      if (!inItem()) return null;
      open.pop();
      if (current) paragraphs.push(current);
      current = null;
    } else if (tag === '<p>') {
      // `<li><p>a</p></li>`: the item's paragraph.
      if (current && !(inItem() && current.length === 0)) return null;
      current = [];
    } else if (tag === '</p>') {
      if (!current) return null;
      if (current.length > 0 || !inItem()) paragraphs.push(current);
      current = null;
    } else if ('node' in piece) {
      if (current) current.push(piece.node);
      else if (isBlank(piece.node)) continue;
      else if (inItem()) current = [piece.node];
      else return null;
    }
  }
  return !current && open.length === 0 ? { paragraphs, listed } : null;
}
