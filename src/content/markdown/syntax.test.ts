import { describe, expect, it } from 'vitest';
import { mapUrlAttributes, readHtmlTag, splitHtml } from './syntax.ts';

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

/* GitBook's HTML forms (figures, tables, code) are read tag by tag. Made-up markup. */
describe('splitHtml and readHtmlTag', () => {
  it('read a quoted value holding `<` and `>` as part of its tag (GitBook writes `alt="for <tenant>"` unescaped)', () => {
    const markup = '<img src="a.png" alt="Grant consent for <your_tenant>&#x27;" width="563"><figcaption></figcaption>';
    expect(splitHtml(markup)).toEqual([
      { tag: { name: 'img', closing: false, attrs: { src: 'a.png', alt: "Grant consent for <your_tenant>'", width: '563' } } },
      { tag: { name: 'figcaption', closing: false, attrs: {} } },
      { tag: { name: 'figcaption', closing: true, attrs: {} } },
    ]);
    expect(readHtmlTag(`<img alt='a > b' width="10" />`)).toEqual({ name: 'img', closing: false, attrs: { alt: 'a > b', width: '10' } });
  });

  it('end a tag whose quote is left open at its first `>`, as before', () => {
    expect(splitHtml('<a title="open>x</a>')).toEqual([
      { tag: { name: 'a', closing: false, attrs: { title: 'open' } } },
      { text: 'x' },
      { tag: { name: 'a', closing: true, attrs: {} } },
    ]);
    expect(readHtmlTag('<a title="open>')).toEqual({ name: 'a', closing: false, attrs: { title: 'open' } });
  });

  it('take text that opens no tag as text, and a whole snippet as one tag only when it is one', () => {
    expect(splitHtml('a < b and <3 or <a/b> <br/>')).toEqual([{ text: 'a < b and <3 or <a/b> ' }, { tag: { name: 'br', closing: false, attrs: {} } }]);
    expect(readHtmlTag('<b>x</b>')).toBeNull();
    expect(readHtmlTag('  </mark >  ')).toEqual({ name: 'mark', closing: true, attrs: {} });
  });
});
