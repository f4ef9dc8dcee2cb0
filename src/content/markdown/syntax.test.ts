import { describe, expect, it } from 'vitest';
import { mapUrlAttributes } from './syntax.ts';

/* The URLs of markup kept verbatim, read from its tags as a browser's tokenizer reads them. Made-up markup. */
describe('mapUrlAttributes', () => {
  const mark = (markup: string) => mapUrlAttributes(markup, ({ lead, name, value }) => `${lead}"[${name}:${value}]"`);

  it('replaces the href and src of tags, any case, either quote, value decoded', () => {
    expect(mark(`<p><A HREF="docs/a&#x26;b.md">A</A><img alt="x" src='i.png'></p>`)).toBe(`<p><A HREF="[href:docs/a&b.md]">A</A><img alt="x" src="[src:i.png]"></p>`);
  });

  it('leaves text that only looks like an attribute as written (escaped markup shown in code)', () => {
    const markup = '<code>&#x3C;a href="gone.md">x&#x3C;/a></code> and  href="plain.md" in prose';
    expect(mark(markup)).toBe(markup);
  });

  it('reads an unquoted value, and ` href=` inside another attribute\'s value as that value', () => {
    expect(mark('<a href=docs/a.md title=x>A</a>')).toBe('<a href="[href:docs/a.md]" title=x>A</a>');
    expect(mark('<b title="see href=\'y.md\'">B</b>')).toBe('<b title="see href=\'y.md\'">B</b>');
  });

  it('reads a quoted value holding `>` as part of its tag', () => {
    expect(mark('<img title="a > b" src="i.png">')).toBe('<img title="a > b" src="[src:i.png]">');
  });

  it('reads a tag the markup never closes as holding the rest: nothing after it is a tag', () => {
    expect(mark('<a href="x.md">x</a><b title="open <a href="y.md">')).toBe('<a href="[href:x.md]">x</a><b title="open <a href="y.md">');
    expect(mark('<a href="x.md" <i')).toBe('<a href="x.md" <i');
  });
});
