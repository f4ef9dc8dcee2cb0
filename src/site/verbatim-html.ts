import type sanitizeHtml from 'sanitize-html';
import { escapeHtml } from './html.ts';
import { loadOnUse } from '../lib/load-on-use.ts';

/*
 * HTML a page keeps verbatim (an HTML block of its markdown), made safe to publish.
 */

/** sanitize-html (with PostCSS) is needed only by pages holding verbatim HTML: loaded then. */
const loadSanitizeHtml = loadOnUse<typeof sanitizeHtml>('sanitize-html');
let sanitizeOptions: sanitizeHtml.IOptions | undefined;

/*
 * Processing instructions, declarations and CDATA sections (CommonMark's HTML blocks of kinds
 * 3 to 5: `<?php system($_GET['c']); ?>`, `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>`,
 * `<![CDATA[…]]>`) mean nothing on a web page: a browser hides them, and sanitize-html drops them.
 * Pages write them to be read (payloads in security notes, XML samples), and Quire shows them
 * inline as text already, so they are shown here too, as code: what they hold is code (`echo
 * "<p>"`), not markup Quire failed to read, its lines as written. Comments stay hidden; one left unclosed runs to the
 * end of the block, as CommonMark's block does (a declaration's internal subset, `[…]`, too:
 * its `>`s are inside it).
 */
const DIRECTIVE_OR_COMMENT = /<!--[\s\S]*?(?:-->|$)|<\?[\s\S]*?(?:\?>|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![A-Za-z][^>[]*(?:\[[\s\S]*?(?:\]|$)[^>]*)?(?:>|$)/;
/** A tag's attributes, each quoted value whole (one left open runs to the end). */
const ATTRIBUTES = String.raw`[^"'>]*(?:(?:"[^"]*(?:"|$)|'[^']*(?:'|$))[^"'>]*)*`;
/**
 * A start tag: a directive written inside its attribute values is their text. A tag left open
 * runs to the end (it can never fail, so never backtracks: linear on any input).
 */
const START_TAG = new RegExp(String.raw`<[A-Za-z]${ATTRIBUTES}(?:>|$)`);
/**
 * A `<textarea>` shows its text as written (no tags are read there; entities are), in a box a
 * reader cannot type into: shown as preformatted text. sanitize-html would drop it whole.
 */
const TEXTAREA = new RegExp(String.raw`<textarea\b${ATTRIBUTES}>([\s\S]*?)(?:<\/textarea\s*>|$)`);
const SHOWN_AS_WRITTEN = new RegExp(`${TEXTAREA.source}|${START_TAG.source}|${DIRECTIVE_OR_COMMENT.source}`, 'gi');

const shownAsWritten = (html: string) =>
  html.includes('<?') || html.includes('<!') || /<textarea\b/i.test(html)
    ? html.replace(SHOWN_AS_WRITTEN, (found, textarea: string | undefined) => {
        if (textarea !== undefined) return `<pre>${textarea.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</pre>`;
        return found.startsWith('<!--') || /^<[A-Za-z]/.test(found) ? found : `<code class="directive">${escapeHtml(found)}</code>`;
      })
    : html;

/** HTML kept verbatim: only what sanitize-html lets through (no scripts, styles, handlers, iframes). */
export function sanitizeVerbatimHtml(html: string): string {
  const sanitizeHtml = loadSanitizeHtml();
  sanitizeOptions ??= {
    allowedTags: [
      ...sanitizeHtml.defaults.allowedTags,
      'img', 'picture', 'source', 'figure', 'figcaption', 'details', 'summary', 'mark', 'kbd', 'sup', 'sub', 'del', 's', 'ins', 'button',
    ],
    allowedAttributes: {
      ...sanitizeHtml.defaults.allowedAttributes,
      img: ['src', 'srcset', 'alt', 'title', 'width', 'height', 'loading'],
      source: ['srcset', 'media', 'type'],
      td: ['colspan', 'rowspan', 'align', 'width'],
      th: ['colspan', 'rowspan', 'align', 'width'],
      a: ['href', 'name', 'target', 'title', 'data-unresolved-link'],
      details: ['open'],
      // `<p align="center">` (a row of badges, a centred logo): the browser honours it, as GitBook's reader does.
      ...Object.fromEntries(['p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag) => [tag, ['align']])),
      ol: ['start'],
    },
    // A directive shown as code keeps its lines (styles.ts); the class is all it can carry.
    allowedClasses: { code: ['directive'] },
  };
  return sanitizeHtml(shownAsWritten(html), sanitizeOptions);
}
