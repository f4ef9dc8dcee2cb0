/*
 * Markdown shortcuts while typing (`# `, `- `, `1. `, "```", `> `, `[] `, `---`, `**bold**`…)
 * and the keyboard: marks, headings, lists, undo/redo, save.
 */
import { InputRule, inputRules, textblockTypeInputRule, wrappingInputRule } from 'prosemirror-inputrules';
import { keymap } from 'prosemirror-keymap';
import { baseKeymap, chainCommands, exitCode, setBlockType, toggleMark } from 'prosemirror-commands';
import { redo, undo } from 'prosemirror-history';
import { liftListItem, sinkListItem, splitListItem } from 'prosemirror-schema-list';
import type { MarkType } from 'prosemirror-model';
import { TextSelection, type Command, type Plugin } from 'prosemirror-state';
import { schema } from '../schema.ts';

const n = schema.nodes;
const m = schema.marks;

/** `**text**` and the like: the delimited text gets the mark, the delimiters go. */
function markRule(pattern: RegExp, type: MarkType): InputRule {
  return new InputRule(pattern, (state, match, start, end) => {
    const text = match[1];
    if (!text) return null;
    const tr = state.tr.replaceWith(start, end, schema.text(text, [type.create()]));
    return tr.removeStoredMark(type);
  });
}

/** A block that stands where the paragraph stood, when its container allows it. */
function replaceParagraphRule(pattern: RegExp, make: () => import('prosemirror-model').Node): InputRule {
  return new InputRule(pattern, (state, _match, start, end) => {
    const $start = state.doc.resolve(start);
    const depth = $start.depth;
    if ($start.parent.type !== n.paragraph || $start.parent.content.size !== end - start) return null;
    const node = make();
    const parent = $start.node(depth - 1);
    const index = $start.index(depth - 1);
    if (!parent.canReplaceWith(index, index + 1, node.type)) return null;
    const tr = state.tr.replaceWith($start.before(depth), $start.after(depth), node);
    const inside = TextSelection.findFrom(tr.doc.resolve($start.before(depth) + 1), 1, true);
    return inside ? tr.setSelection(inside) : tr;
  });
}

export function markdownShortcuts(): Plugin {
  return inputRules({
    rules: [
      textblockTypeInputRule(/^(#{1,3})\s$/, n.heading!, (match) => ({ level: match[1]!.length })),
      wrappingInputRule(/^\s*([-+*])\s$/, n.list_unordered!),
      wrappingInputRule(/^(\d+)\.\s$/, n.list_ordered!, (match) => ({ data: Number(match[1]) === 1 ? {} : { start: Number(match[1]) } }), (match, node) => node.childCount + Number((node.attrs.data as { start?: number }).start ?? 1) === Number(match[1])),
      replaceParagraphRule(/^\[( |x)?\]\s$/, () => n.list_tasks!.create(null, n.list_item!.create({ data: { checked: false } }, n.paragraph!.create()))),
      wrappingInputRule(/^\s*>\s$/, n.blockquote!),
      replaceParagraphRule(/^```$/, () => n.code_block!.create({ data: {} }, n.code_line!.create())),
      replaceParagraphRule(/^(?:---|\*\*\*)$/, () => n.divider!.create()),
      markRule(/\*\*([^*]+)\*\*$/, m.bold!),
      markRule(/(?:^|[^\w*])_([^_]+)_$/, m.italic!),
      markRule(/`([^`]+)`$/, m.code!),
      markRule(/~~([^~]+)~~$/, m.strikethrough!),
    ],
  });
}

/** Enter in a code line starts a new line; Mod-Enter (or Enter on an empty last line twice) leaves. */
const codeEnter: Command = (state, dispatch) => {
  const { $from } = state.selection;
  if ($from.parent.type !== n.code_line) return false;
  const block = $from.node($from.depth - 1);
  const isLast = $from.index($from.depth - 1) === block.childCount - 1;
  if (isLast && $from.parent.content.size === 0 && block.childCount > 1) {
    // An empty last line: leave the code block with a paragraph after it.
    if (dispatch) {
      const lineStart = $from.before();
      const after = $from.after($from.depth - 1) - $from.parent.nodeSize;
      const tr = state.tr.delete(lineStart, $from.after());
      const paragraphAt = after;
      tr.insert(paragraphAt, n.paragraph!.create());
      dispatch(tr.setSelection(TextSelection.create(tr.doc, paragraphAt + 1)).scrollIntoView());
    }
    return true;
  }
  if (dispatch) dispatch(state.tr.split($from.pos).scrollIntoView());
  return true;
};

export function editorKeymap(save: () => void): Plugin[] {
  const saveCommand: Command = () => {
    save();
    return true;
  };
  return [
    keymap({
      'Mod-z': undo,
      'Shift-Mod-z': redo,
      'Mod-y': redo,
      'Mod-s': saveCommand,
      'Mod-b': toggleMark(m.bold!),
      'Mod-i': toggleMark(m.italic!),
      'Mod-e': toggleMark(m.code!),
      'Mod-`': toggleMark(m.code!),
      'Shift-Mod-x': toggleMark(m.strikethrough!),
      'Shift-Mod-k': toggleMark(m.keyboard!),
      'Mod-Alt-0': setBlockType(n.paragraph!),
      'Mod-Alt-1': setBlockType(n.heading!, { level: 1 }),
      'Mod-Alt-2': setBlockType(n.heading!, { level: 2 }),
      'Mod-Alt-3': setBlockType(n.heading!, { level: 3 }),
      Enter: chainCommands(codeEnter, splitListItem(n.list_item!)),
      'Mod-Enter': exitCode,
      Tab: sinkListItem(n.list_item!),
      'Shift-Tab': liftListItem(n.list_item!),
    }),
    keymap(baseKeymap),
  ];
}
