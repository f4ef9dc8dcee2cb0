import { parseLink } from '../lib/urls.ts';

/*
 * The two helpers every piece of published HTML goes through. Escaping is five characters
 * (what escape-html does); a dependency for that would be heavier than the code.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value, safe inside HTML (element content and quoted attributes). */
export function escapeHtml(text: string): string {
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c]) : text;
}

/** A URL safe to put in href/src (see parseLink), or null: the caller drops the link. */
export function safeUrl(url: string | undefined | null): string | null {
  return parseLink(url)?.url ?? null;
}

/** A CSS color from customization: hex only, so nothing can break out of the style sheet. */
export function safeColor(value: unknown): string | null {
  return typeof value === 'string' && /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value) ? value : null;
}
