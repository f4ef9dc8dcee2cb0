import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument, normalizeMarkdown } from './index.ts';
import { documentSchemaErrors } from '../../../test/markdown-schema.ts';


/*
 * Every page of the corpus (realistic GitBook pages mixing the constructs, several in the
 * exact form GitBook exports) must normalize idempotently, read back to the same document
 * once normalized, and give documents GitBook's schema accepts.
 */
const dir = join(import.meta.dirname, 'fixtures');
const pages = readdirSync(dir).filter((f) => f.endsWith('.md')).sort();

describe('markdown corpus', () => {
  it('has at least 30 pages', () => {
    expect(pages.length).toBeGreaterThanOrEqual(30);
  });

  describe.each(pages)('%s', (page) => {
    const markdown = readFileSync(join(dir, page), 'utf8');
    const document = markdownToDocument(markdown);
    const normalized = normalizeMarkdown(markdown);

    it('normalizes idempotently', () => {
      expect(normalizeMarkdown(normalized)).toBe(normalized);
    });

    it('reads the normalized markdown back to the same document', () => {
      expect(markdownToDocument(normalized)).toEqual(document);
    });

    it('gives a document that validates against GitBook JSONDocument', () => {
      expect(documentSchemaErrors(document)).toBeNull();
    });

    it('is deterministic and keys every block', () => {
      expect(markdownToDocument(markdown)).toEqual(document);
      const keys: string[] = [];
      const collect = (node: { key?: string; object: string; nodes?: unknown[]; fragments?: Array<{ nodes: unknown[] }> }) => {
        if (node.object === 'block') {
          expect(node.key).toBeTypeOf('string');
          keys.push(node.key!);
        }
        for (const child of node.nodes ?? []) collect(child as typeof node);
        for (const fragment of node.fragments ?? []) for (const child of fragment.nodes) collect(child as typeof node);
      };
      document.nodes.forEach((n) => collect(n));
      expect(new Set(keys).size).toBe(keys.length);
    });

    it('keeps no placeholder characters and writes the same markdown from the document', () => {
      expect(normalized).not.toMatch(/[\uE000-\uE0FF]/);
      expect(documentToMarkdown(document)).toBe(normalized);
    });
  });
});
