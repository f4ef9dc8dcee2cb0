import { describe, expect, it } from 'vitest';
import { documentSchemaErrors } from '../../../test/markdown-schema.ts';
import { documentToMarkdown, markdownToDocument } from './index.ts';

/*
 * A changelog update's tags (issue 32, the editor's tag control): GitBook writes
 * `{% update date="…" tags="a,b" %}` (the held-out corpus's form); read as references to the
 * revision's tags by slug, written back byte for byte. Other tag values stay verbatim.
 */
const changelog = (tags: string) => `{% updates format="full" %}\n\n{% update date="2025-12-17"${tags} %}\nNew.\n{% endupdate %}\n\n{% update date="2025-11-24" %}\nOld.\n{% endupdate %}\n{% endupdates %}\n`;

describe('update tags', () => {
  it('reads tags="a,b" as tag references, valid in GitBook\'s schema, and writes them back byte for byte', () => {
    const markdown = changelog(' tags="data-quality,enhancement,events-api"');
    const document = markdownToDocument(markdown);
    const [updates] = document.nodes as any[];
    expect(updates.type).toBe('updates');
    expect(updates.nodes[0].data).toEqual({ date: '2025-12-17T00:00:00.000Z', tags: [{ kind: 'tag', tag: 'data-quality' }, { kind: 'tag', tag: 'enhancement' }, { kind: 'tag', tag: 'events-api' }] });
    expect(updates.nodes[1].data).toEqual({ date: '2025-11-24T00:00:00.000Z' });
    expect(documentSchemaErrors(document)).toBeNull();
    expect(documentToMarkdown(document)).toBe(markdown);
  });

  it('writes tags set through the API; an empty list writes none', () => {
    const document = markdownToDocument(changelog(''));
    const [updates] = document.nodes as any[];
    updates.nodes[1].data.tags = [{ kind: 'tag', tag: 'fix' }];
    updates.nodes[0].data.tags = [];
    expect(documentToMarkdown(document)).toBe(changelog('').replace('{% update date="2025-11-24" %}', '{% update date="2025-11-24" tags="fix" %}'));
  });

  it('keeps a changelog verbatim when its tags are not slugs GitBook writes', () => {
    for (const tags of [' tags="Data Quality"', ' tags="a, b"', ' tags=""', ' tags="a,,b"']) {
      const markdown = changelog(tags);
      const document = markdownToDocument(markdown);
      expect(document.nodes[0]!.type, tags).not.toBe('updates');
      expect(documentToMarkdown(document)).toBe(markdown);
    }
  });
});
