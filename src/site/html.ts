/*
 * The two helpers every piece of published HTML goes through. Escaping is five characters
 * (what escape-html does); a dependency for that would be heavier than the code.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or an attribute value, safe inside HTML (element content and quoted attributes). */
export function escapeHtml(text: string): string {
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c]) : text;
}

/**
 * A URL safe to put in href/src: http(s), mailto, tel, a fragment or a path on this host.
 * Anything else (`javascript:`, `data:`, …) gives null, and the caller drops the link.
 */
export function safeUrl(url: string | undefined | null): string | null {
  if (typeof url !== 'string') return null;
  const trimmed = url.trim();
  if (trimmed === '') return null;
  if (/^(https?:|mailto:|tel:)/i.test(trimmed)) return trimmed;
  if (/^[#/?]/.test(trimmed) && !trimmed.startsWith('//')) return trimmed;
  // A relative path without a scheme ("page.html", "docs/x").
  if (!/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !trimmed.startsWith('//')) return trimmed;
  return null;
}

/** A CSS color from customization: hex only, so nothing can break out of the style sheet. */
export function safeColor(value: unknown): string | null {
  return typeof value === 'string' && /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value) ? value : null;
}
