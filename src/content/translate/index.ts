export { countWords, extractDocument, hasText, htmlToPlain, plainToHtml, type ExtractedDocument } from './document.ts';
export { protectTerms, type GlossaryTerm, type ProtectedSegments } from './glossary.ts';
export { decodeEntities, escapeHtml, inlineSegment, textOfHtml } from './inline-html.ts';
