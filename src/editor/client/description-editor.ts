/*
 * The change request's description as rich text: a small ProseMirror editor on the block
 * editor's schema (src/editor/schema.ts), with a toolbar for what a description needs (bold,
 * italic, code, link, bulleted and numbered lists) and the block editor's markdown shortcuts
 * and keys. It starts from the stored GitBook document and, on save, sends the document the
 * converter makes (convert.ts) as `descriptionDocument`; the server checks it as the content
 * batch checks a document and stores it as the API does. Without script, the markdown
 * textarea it replaces does the same job.
 */
import { EditorState, Plugin, type Command } from 'prosemirror-state';
import { EditorView } from 'prosemirror-view';
import { history } from 'prosemirror-history';
import { toggleMark } from 'prosemirror-commands';
import { liftListItem, wrapInList } from 'prosemirror-schema-list';
import type { MarkType, Node as PMNode, NodeType } from 'prosemirror-model';
import { schema } from '../schema.ts';
import { fromProseMirror, toProseMirror } from '../convert.ts';
import type { Document as GitBookDocument } from '../../content/markdown/types.ts';
import { editorKeymap, markdownShortcuts } from './rules.ts';

const n = schema.nodes;
const m = schema.marks;

/** The stored description as the editor's document; an empty paragraph when there is none. */
export function startingDoc(stored: unknown): PMNode {
  const document = stored as { object?: string; nodes?: unknown[] } | null;
  if (document && document.object === 'document' && Array.isArray(document.nodes) && document.nodes.length > 0) {
    return toProseMirror(document as GitBookDocument);
  }
  return schema.topNodeType.createAndFill()!;
}

/** What is saved: the GitBook document, or no block at all for an editor left empty. */
export function savedDocument(doc: PMNode): GitBookDocument {
  const empty = doc.childCount === 1 && doc.firstChild!.type === n.paragraph && doc.firstChild!.content.size === 0;
  return empty ? { object: 'document', data: {}, nodes: [] } : fromProseMirror(doc);
}

function markActive(state: EditorState, type: MarkType): boolean {
  const { from, $from, to, empty } = state.selection;
  return empty ? !!type.isInSet(state.storedMarks ?? $from.marks()) : state.doc.rangeHasMark(from, to, type);
}

function inList(state: EditorState, type: NodeType): boolean {
  const { $from } = state.selection;
  for (let depth = $from.depth; depth > 0; depth--) if ($from.node(depth).type === type) return true;
  return false;
}

/** Wraps the selection in a list of `type`, or lifts it out of the list it is in. */
function toggleList(type: NodeType): Command {
  return (state, dispatch) => (inList(state, type) ? liftListItem(n.list_item!)(state, dispatch) : wrapInList(type)(state, dispatch));
}

/** Removes the link under the selection, or asks for an address and links the selection (or inserts it). */
const toggleLink: Command = (state, dispatch) => {
  const link = m.link!;
  const { from, to, empty, $from } = state.selection;
  if (markActive(state, link)) {
    if (dispatch) {
      // An empty selection inside a link removes the whole link around it.
      let start = from;
      let end = to;
      if (empty) {
        const parent = $from.parent;
        const offset = $from.parentOffset;
        parent.forEach((child, childOffset) => {
          if (childOffset <= offset && offset <= childOffset + child.nodeSize && link.isInSet(child.marks)) {
            start = $from.start() + childOffset;
            end = start + child.nodeSize;
          }
        });
      }
      dispatch(state.tr.removeMark(start, end, link));
    }
    return true;
  }
  if (!dispatch) return true;
  const url = window.prompt('Link address (https://…)')?.trim();
  if (!url) return false;
  if (!/^(https?:\/\/|mailto:)/i.test(url)) {
    window.alert('A link address starts with https://, http:// or mailto:');
    return false;
  }
  const mark = link.create({ data: { ref: { kind: 'url', url } } });
  dispatch(empty ? state.tr.replaceSelectionWith(schema.text(url, [mark]), false) : state.tr.addMark(from, to, mark));
  return true;
};

interface Tool {
  label: string;
  text: string;
  run: Command;
  active: (state: EditorState) => boolean;
}

const TOOLS: Tool[] = [
  { label: 'Bold', text: 'B', run: toggleMark(m.bold!), active: (s) => markActive(s, m.bold!) },
  { label: 'Italic', text: 'I', run: toggleMark(m.italic!), active: (s) => markActive(s, m.italic!) },
  { label: 'Code', text: '</>', run: toggleMark(m.code!), active: (s) => markActive(s, m.code!) },
  { label: 'Link', text: 'Link', run: toggleLink, active: (s) => markActive(s, m.link!) },
  { label: 'Bulleted list', text: '• List', run: toggleList(n.list_unordered!), active: (s) => inList(s, n.list_unordered!) },
  { label: 'Numbered list', text: '1. List', run: toggleList(n.list_ordered!), active: (s) => inList(s, n.list_ordered!) },
];

/** Keeps each toolbar button's pressed state in step with the selection. */
function toolbarState(buttons: Map<Tool, HTMLButtonElement>): Plugin {
  const sync = (state: EditorState) => {
    for (const [tool, button] of buttons) button.setAttribute('aria-pressed', String(tool.active(state)));
  };
  return new Plugin({ view: (view) => (sync(view.state), { update: (v) => sync(v.state) }) });
}

export function initDescriptionEditor(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>('form[data-description-form]');
  const markdown = form?.querySelector<HTMLLabelElement>('[data-description-markdown]');
  const textarea = markdown?.querySelector('textarea');
  if (!form || !markdown || !textarea) return;
  let stored: unknown = null;
  try {
    stored = JSON.parse(textarea.dataset.document ?? 'null');
  } catch {
    stored = null;
  }
  let start: PMNode;
  try {
    start = startingDoc(stored);
  } catch {
    return; // A document the editor cannot show: the markdown textarea stays.
  }

  const field = doc.createElement('div');
  field.className = 'cr-rich';
  const name = doc.createElement('span');
  name.className = 'cr-rich-label';
  name.textContent = 'Description';
  const toolbar = doc.createElement('div');
  toolbar.className = 'cr-rich-toolbar';
  toolbar.setAttribute('role', 'toolbar');
  toolbar.setAttribute('aria-label', 'Description formatting');
  const body = doc.createElement('div');
  body.className = 'cr-rich-body content';
  field.append(name, toolbar, body);

  const buttons = new Map<Tool, HTMLButtonElement>();
  for (const tool of TOOLS) {
    const button = doc.createElement('button');
    button.type = 'button';
    button.className = 'app-button secondary small';
    button.textContent = tool.text;
    button.setAttribute('aria-label', tool.label);
    button.title = tool.label;
    buttons.set(tool, button);
    toolbar.append(button);
  }

  const view = new EditorView(body, {
    state: EditorState.create({
      doc: start,
      plugins: [history(), markdownShortcuts(), ...editorKeymap(() => form.requestSubmit()), toolbarState(buttons)],
    }),
    attributes: { role: 'textbox', 'aria-multiline': 'true', 'aria-label': 'Description', class: 'cr-rich-text' },
  });
  for (const [tool, button] of buttons) {
    // mousedown would take the focus (and the selection) away from the editor.
    button.addEventListener('mousedown', (event) => event.preventDefault());
    button.addEventListener('click', () => {
      tool.run(view.state, view.dispatch, view);
      view.focus();
    });
  }

  // The markdown textarea leaves the form (a disabled field is not sent); the document goes instead.
  markdown.hidden = true;
  textarea.disabled = true;
  markdown.after(field);
  const saved = doc.createElement('input');
  saved.type = 'hidden';
  saved.name = 'descriptionDocument';
  form.append(saved);
  form.addEventListener('submit', () => {
    saved.value = JSON.stringify(savedDocument(view.state.doc));
  });
}
