/*
 * The editor offers, shows and writes GitBook's hint styles from the engine's one list
 * (HINT_STYLES): the slash menu's hint kinds, the panel's style choices and the schema's
 * rendering, each read back through the engine's markdown.
 */
import { describe, expect, it } from 'vitest';
import { documentToMarkdown } from '../content/markdown/index.ts';
import { HINT_STYLES } from '../content/markdown/types.ts';
import { KINDS } from './client/blocks.ts';
import { PANEL_SETTINGS } from './client/panel.ts';
import { fromProseMirror } from './convert.ts';
import { schema } from './schema.ts';

const ctx = { ask: async () => null, upload: async () => '', chosenFile: () => null };
const hintOf = (style: unknown) => schema.nodes.hint!.create({ data: { style } }, schema.nodes.paragraph!.create(null, schema.text('Note.')));
/** The class the editor's view gives a hint (its toDOM), as a [tag, attributes, hole] spec. */
const classOf = (style: unknown) => ((schema.nodes.hint!.spec.toDOM!(hintOf(style)) as unknown as [string, Record<string, string>])[1].class);

describe('hint styles in the editor', () => {
  it('offers one slash-menu kind per style of the engine’s list, each written as that style’s hint', async () => {
    const hintKinds = KINDS.filter((kind) => kind.id.startsWith('hint-'));
    expect(hintKinds.map((kind) => kind.id)).toEqual([...HINT_STYLES].map((style) => `hint-${style}`));
    for (const [i, style] of [...HINT_STYLES].entries()) {
      const made = await hintKinds[i]!.make(ctx);
      const document = fromProseMirror(schema.nodes.doc!.create(null, made!));
      expect(documentToMarkdown(document)).toContain(`{% hint style="${style}" %}`);
    }
  });

  it('lets the panel choose exactly the engine’s styles and writes the one chosen', async () => {
    const style = PANEL_SETTINGS.hint!.find((setting) => setting.label === 'Style')!;
    expect(style.options!.map(([value]) => value)).toEqual([...HINT_STYLES]);
    expect(await style.set({ style: 'info' }, 'danger', { ...ctx, pages: () => [], say: () => {} })).toEqual({ style: 'danger' });
  });

  it('shows a hint in its own style and one of a style GitBook does not have as info, as the published site does', () => {
    for (const style of HINT_STYLES) expect(classOf(style)).toBe(`hint hint-${style}`);
    expect(classOf('purple')).toBe('hint hint-info');
    expect(classOf(undefined)).toBe('hint hint-info');
  });
});
