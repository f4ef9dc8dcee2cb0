/*
 * The block editor page: loads the page's GitBook document from the change request through
 * the API, edits it in ProseMirror (schema.ts, convert.ts), saves it back with update_page.
 */
import 'prosemirror-view/style/prosemirror.css';
import './editor.css';
import { EditorState, Plugin, TextSelection, type Command } from 'prosemirror-state';
import { Decoration, DecorationSet, EditorView } from 'prosemirror-view';
import { history, redo, undo } from 'prosemirror-history';
import { dropCursor } from 'prosemirror-dropcursor';
import { gapCursor } from 'prosemirror-gapcursor';
import { setBlockType, toggleMark, wrapIn, lift } from 'prosemirror-commands';
import { wrapInList } from 'prosemirror-schema-list';
import { Slice, Fragment, type MarkType, type Node as PMNode } from 'prosemirror-model';
import { schema } from '../schema.ts';
import { fromProseMirror, toProseMirror } from '../convert.ts';
import { Api, ApiError, type EditorConfig, type PageEntry } from './api.ts';
import { KINDS, insertNode, webUrl, type Field, type InsertContext, type Kind } from './blocks.ts';
import { editorKeymap, markdownShortcuts } from './rules.ts';
import { blockHandle, slashMenu } from './menu.ts';
import { BlockPanel } from './panel.ts';
import { cellAt } from './panel-table.ts';
import { nodeViews } from './views.ts';
import { StaleSave, connectCollab } from './collab.ts';

const n = schema.nodes;
const m = schema.marks;

function flatten(pages: PageEntry[], depth = 0, out: Array<{ id: string; title: string; depth: number }> = []) {
  for (const page of pages) {
    if (page.type === 'document') out.push({ id: page.id, title: page.title, depth });
    flatten(page.pages ?? [], depth + 1, out);
  }
  return out;
}

/** The dialog the editor asks its questions in (a URL, a formula, a page, a file). */
class Asker {
  private readonly dialog: HTMLDialogElement;
  private file: File | null = null;

  constructor(private readonly pages: () => Array<{ id: string; title: string; depth: number }>) {
    this.dialog = document.createElement('dialog');
    this.dialog.className = 'editor-dialog';
    document.body.append(this.dialog);
  }

  chosenFile(): File | null {
    return this.file;
  }

  ask(title: string, fields: Field[]): Promise<Record<string, string> | null> {
    this.file = null;
    return new Promise((resolve) => {
      const form = document.createElement('form');
      form.method = 'dialog';
      const heading = document.createElement('h2');
      heading.textContent = title;
      form.append(heading);
      const controls = new Map<string, HTMLInputElement | HTMLSelectElement>();
      for (const field of fields) {
        const label = document.createElement('label');
        label.append(field.label);
        let control: HTMLInputElement | HTMLSelectElement;
        if (field.kind === 'select' || field.kind === 'page') {
          control = document.createElement('select');
          const options = field.kind === 'page' ? this.pages().map((p) => ({ value: p.id, label: `${'· '.repeat(p.depth)}${p.title}` })) : (field.options ?? []).map((o) => ({ value: o, label: o }));
          for (const option of options) control.append(new Option(option.label, option.value));
          if (field.value) control.value = field.value;
        } else {
          control = document.createElement('input');
          control.type = field.kind === 'file' ? 'file' : 'text';
          if (field.accept) control.accept = field.accept;
          if (field.value) control.value = field.value;
          if (field.kind === 'file') control.addEventListener('change', () => (this.file = (control as HTMLInputElement).files?.[0] ?? null));
        }
        control.name = field.name;
        label.append(control);
        form.append(label);
        controls.set(field.name, control);
      }
      const buttons = document.createElement('div');
      buttons.className = 'dialog-buttons';
      const ok = document.createElement('button');
      ok.type = 'submit';
      ok.value = 'ok';
      ok.textContent = 'Insert';
      const cancel = document.createElement('button');
      cancel.type = 'submit';
      cancel.value = 'cancel';
      cancel.textContent = 'Cancel';
      buttons.append(ok, cancel);
      form.append(buttons);
      this.dialog.replaceChildren(form);
      this.dialog.onclose = () => {
        if (this.dialog.returnValue !== 'ok') return resolve(null);
        resolve(Object.fromEntries([...controls].map(([name, control]) => [name, control.value])));
      };
      this.dialog.returnValue = '';
      this.dialog.showModal();
    });
  }
}

function markActive(state: EditorState, type: MarkType): boolean {
  const { from, $from, to, empty } = state.selection;
  if (empty) return !!type.isInSet(state.storedMarks || $from.marks());
  return state.doc.rangeHasMark(from, to, type);
}

/** Table body cells aligned as their column's header says. */
const tableAlignment = new Plugin({
  props: {
    decorations(state) {
      const decorations: Decoration[] = [];
      state.doc.descendants((node, pos) => {
        if (node.type !== n.table) return node.isBlock && !node.isTextblock;
        const aligns: string[] = [];
        node.child(0).forEach((cell) => aligns.push(String(cell.attrs.align)));
        node.forEach((row, rowOffset, r) => {
          if (r === 0) return;
          row.forEach((cell, cellOffset, c) => {
            const align = aligns[c];
            if (align && align !== 'left') {
              const at = pos + 1 + rowOffset + 1 + cellOffset;
              decorations.push(Decoration.node(at, at + cell.nodeSize, { style: `text-align: ${align}` }));
            }
          });
        });
        return false;
      });
      return DecorationSet.create(state.doc, decorations);
    },
  },
});

/** Markdown worth reading as markdown when pasted as plain text. */
const MARKDOWN_SIGNS = /^(#{1,6}\s|[-*+]\s|\d+\.\s|>\s|```|\|.*\|\s*$|\s*[-*_]{3,}\s*$)|\*\*[^*]+\*\*|\[[^\]]+\]\([^)]+\)|`[^`]+`/m;

async function start(root: HTMLElement): Promise<void> {
  const config = JSON.parse(root.dataset.config ?? '{}') as EditorConfig;
  const api = new Api(config);
  const status = document.createElement('span');
  status.className = 'save-status';
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  const say = (text: string) => (status.textContent = text);
  // Everything the editor waits for at once: with live editing (collab.ts) the document comes
  // from the socket, opened now rather than after the API reads; the page list (titles for
  // the page picker and mentions) is read alongside.
  const [collab, storedDocument, pages] = await Promise.all([
    config.collab ? connectCollab(config.collab, schema, { name: config.userName ?? 'Member' }, say) : null,
    config.collab ? null : api.page().then((page) => page.document),
    api.pages().catch(() => [] as PageEntry[]),
  ]);
  const pageList = flatten(pages);
  const titles = new Map(pageList.map((p) => [p.id, p.title]));
  const fileUrls = new Map<string, Promise<string>>();
  const asker = new Asker(() => pageList);
  let saved: PMNode;
  let view: EditorView;


  const insertContext: InsertContext = {
    openapi: { specs: () => api.openapiSpecs(), operations: (spec) => api.openapiOperations(spec) },
    ask: (title, fields) => asker.ask(title, fields),
    chosenFile: () => asker.chosenFile(),
    upload: async (file) => {
      say(`Uploading ${file.name}…`);
      const stored = await api.upload(file);
      say(`Uploaded ${stored.name}`);
      return stored.id;
    },
  };

  const insertKind = async (kind: Kind) => {
    root.dataset.busy = 'true';
    try {
      const node = await kind.make(insertContext);
      view.focus();
      if (!node) return;
      if (!insertNode(view.state, node, view.dispatch)) say(`${kind.label} cannot stand here`);
    } catch (error) {
      say(error instanceof Error ? error.message : String(error));
    } finally {
      root.dataset.busy = 'false';
    }
  };

  /**
   * Shown when a live save would replace a change made to the page outside live editing (the
   * API, git sync, the tree forms) since the unsaved edits: the member chooses to replace it
   * or to load the page's version (dropping the live edits), never without being told.
   */
  const notice = document.createElement('div');
  notice.className = 'editor-notice';
  notice.setAttribute('role', 'alert');
  notice.hidden = true;
  const showStale = (message: string) => {
    const text = document.createElement('p');
    text.textContent = `${message}.`;
    const replace = document.createElement('button');
    replace.type = 'button';
    replace.className = 'app-button small';
    replace.textContent = 'Save and replace that change';
    replace.addEventListener('click', () => void save(true));
    const reload = document.createElement('button');
    reload.type = 'button';
    reload.className = 'app-button secondary small';
    reload.textContent = 'Load the page’s version (drops the unsaved edits)';
    reload.addEventListener('click', () => {
      notice.hidden = true;
      say('Loading the page’s version…');
      collab!.reload().then(
        () => {
          saved = view.state.doc;
          say('Loaded the page’s version');
          view.dispatch(view.state.tr); // refreshes the unsaved mark
        },
        (error: Error) => say(`Not loaded: ${error.message}`),
      );
    });
    notice.replaceChildren(text, replace, reload);
    notice.hidden = false;
    replace.focus();
  };

  let saving = false;
  const save = async (replace = false) => {
    if (saving) return;
    saving = true;
    notice.hidden = true;
    say('Saving…');
    const doc = view.state.doc;
    try {
      await (collab ? collab.save(replace) : api.save(fromProseMirror(doc)));
      // Live: what is saved is what the server stored, merged and keyed (onInStep below), not
      // `doc`; edits typed since the save was sent are still unsaved.
      if (!collab) saved = doc;
      say('Saved');
      root.dataset.saved = String(Date.now());
      view.dispatch(view.state.tr); // refreshes the unsaved mark
    } catch (error) {
      if (error instanceof StaleSave) {
        say('Not saved');
        showStale(error.message);
      } else say(error instanceof Error && (collab || error instanceof ApiError) ? `Not saved: ${error.message}` : 'Not saved: the server could not be reached');
    } finally {
      saving = false;
    }
  };

  const panel = new BlockPanel(() => view, { ...insertContext, pages: () => pageList, say });

  /* toolbar */
  const toolbar = document.createElement('div');
  toolbar.className = 'editor-toolbar';
  toolbar.setAttribute('role', 'toolbar');
  toolbar.setAttribute('aria-label', 'Formatting');
  const markButtons: Array<[HTMLButtonElement, MarkType]> = [];
  const button = (label: string, text: string, run: () => void, mark?: MarkType) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.title = label;
    b.setAttribute('aria-label', label);
    b.addEventListener('mousedown', (event) => event.preventDefault());
    b.addEventListener('click', () => {
      run();
      view.focus();
    });
    if (mark) {
      b.setAttribute('aria-pressed', 'false');
      markButtons.push([b, mark]);
    }
    toolbar.append(b);
    return b;
  };
  const command = (cmd: Command) => () => cmd(view.state, view.dispatch, view);
  button('Undo (Ctrl+Z)', '↶', command(collab?.undo ?? undo));
  button('Redo (Ctrl+Shift+Z)', '↷', command(collab?.redo ?? redo));
  button('Bold (Ctrl+B)', 'B', command(toggleMark(m.bold!)), m.bold);
  button('Italic (Ctrl+I)', 'I', command(toggleMark(m.italic!)), m.italic);
  button('Strikethrough (Ctrl+Shift+X)', 'S', command(toggleMark(m.strikethrough!)), m.strikethrough);
  button('Code (Ctrl+E)', '</>', command(toggleMark(m.code!)), m.code);
  button('Keyboard key (Ctrl+Shift+K)', '⌨', command(toggleMark(m.keyboard!)), m.keyboard);
  button(
    'Link',
    'Link',
    async () => {
      if (markActive(view.state, m.link!)) return command(toggleMark(m.link!))();
      const { from, to } = view.state.selection;
      const values = await asker.ask('Link', [
        { name: 'url', label: 'URL (or choose a page below)' },
        { name: 'page', label: 'Page', kind: 'page' },
      ]);
      view.focus();
      if (!values) return;
      const ref = webUrl(values.url) ? { kind: 'url', url: values.url!.trim() } : values.page ? { kind: 'page', page: values.page } : null;
      if (!ref) return;
      const mark = m.link!.create({ data: { ref } });
      if (from === to) {
        const label = ref.kind === 'url' ? ref.url! : (titles.get(ref.page!) ?? 'link');
        view.dispatch(view.state.tr.insert(from, schema.text(label, [mark])));
      } else view.dispatch(view.state.tr.addMark(from, to, mark));
    },
    m.link,
  );
  const color = document.createElement('select');
  color.setAttribute('aria-label', 'Text color');
  for (const c of ['color', 'default', 'red', 'orange', 'yellow', 'green', 'blue', 'purple', 'pink']) color.append(new Option(c === 'color' ? 'Color…' : c, c));
  color.addEventListener('change', () => {
    const { from, to } = view.state.selection;
    if (from !== to && color.value !== 'color') {
      const tr = view.state.tr.removeMark(from, to, m.color!);
      if (color.value !== 'default') tr.addMark(from, to, m.color!.create({ data: { text: color.value, background: 'default' } }));
      view.dispatch(tr);
    }
    color.value = 'color';
    view.focus();
  });
  toolbar.append(color);
  const blockType = document.createElement('select');
  blockType.setAttribute('aria-label', 'Block type');
  for (const [value, label] of [['p', 'Text'], ['1', 'Heading 1'], ['2', 'Heading 2'], ['3', 'Heading 3']]) blockType.append(new Option(label, value));
  blockType.addEventListener('change', () => {
    const level = Number(blockType.value);
    command(level ? setBlockType(n.heading!, { level }) : setBlockType(n.paragraph!))();
    view.focus();
  });
  toolbar.append(blockType);
  button('Bulleted list', '•', command(wrapInList(n.list_unordered!)));
  button('Numbered list', '1.', command(wrapInList(n.list_ordered!)));
  button('Task list', '☑', command(wrapInList(n.list_tasks!)));
  button('Quote', '❝', command(wrapIn(n.blockquote!)));
  button('Lift out of the block', '⇤', command(lift));
  const insert = document.createElement('select');
  insert.setAttribute('aria-label', 'Insert a block');
  insert.append(new Option('Insert…', ''));
  for (const kind of KINDS) insert.append(new Option(kind.label, kind.id));
  insert.addEventListener('change', () => {
    const kind = KINDS.find((k) => k.id === insert.value);
    insert.value = '';
    if (kind) void insertKind(kind);
  });
  toolbar.append(insert);
  const saveButton = document.createElement('button');
  saveButton.type = 'button';
  saveButton.className = 'save-button';
  saveButton.textContent = 'Save';
  saveButton.title = 'Save (Ctrl+S)';
  saveButton.addEventListener('click', () => void save());
  toolbar.append(saveButton, status);

  const chrome = new Plugin({
    view: () => ({
      update(v) {
        panel.update(v.state);
        for (const [b, mark] of markButtons) b.setAttribute('aria-pressed', String(markActive(v.state, mark)));
        const parent = v.state.selection.$from.parent;
        blockType.value = parent.type === n.heading ? String(parent.attrs.level) : 'p';
        const dirty = !v.state.doc.eq(saved);
        root.dataset.dirty = String(dirty);
        if (dirty && status.textContent === 'Saved') say('Unsaved changes');
        toolbar.classList.toggle('in-table', cellAt(v.state) !== null);
      },
    }),
  });

  saved = collab ? collab.initialDoc() : toProseMirror(storedDocument!);
  const mount = document.createElement('div');
  mount.className = 'editor-surface';
  // The block panel follows the content, kept in view at the bottom of the window: its height
  // changes with the cursor's block, which would move the content under the pointer above it.
  root.replaceChildren(toolbar, notice, mount, panel.dom);

  view = new EditorView(mount, {
    state: EditorState.create({
      doc: saved,
      plugins: [
        ...(collab?.plugins ?? []),
        slashMenu((v, kind, match) => {
          v.dispatch(v.state.tr.delete(match.from, match.to));
          void insertKind(kind);
        }),
        markdownShortcuts(),
        blockHandle(),
        ...editorKeymap(() => void save()),
        ...(collab ? [] : [history()]),
        dropCursor(),
        gapCursor(),
        tableAlignment,
        chrome,
      ],
    }),
    nodeViews: nodeViews({
      pageTitle: (id) => titles.get(id),
      fileUrl: (id) => {
        let url = fileUrls.get(id);
        if (!url) fileUrls.set(id, (url = api.fileUrl(id)));
        return url;
      },
    }),
    // The cursor is kept above the block panel at the bottom of the window.
    scrollMargin: { top: 80, bottom: 160, left: 5, right: 5 },
    attributes: { 'aria-label': `Content of ${config.pageTitle}`, 'aria-multiline': 'true', role: 'textbox', spellcheck: 'true' },
    handlePaste(v, event) {
      const data = event.clipboardData;
      if (!data || data.types.includes('text/html') || v.state.selection.$from.parent.type.spec.code) return false;
      const text = data.getData('text/plain');
      if (!text || !MARKDOWN_SIGNS.test(text)) return false;
      const at = v.state.selection;
      say('Reading pasted markdown…');
      api.markdown(text).then(
        (document) => {
          const pasted = toProseMirror(document);
          const slice = new Slice(Fragment.from(pasted.content), 0, 0);
          const sel = v.state.selection.eq(at) ? v.state.selection : at;
          v.dispatch(v.state.tr.setSelection(sel).replaceSelection(slice).scrollIntoView());
          say('');
        },
        () => {
          v.dispatch(v.state.tr.insertText(text));
          say('');
        },
      );
      return true;
    },
    handleDOMEvents: {
      drop(v, event) {
        const file = event.dataTransfer?.files?.[0];
        if (!file || !file.type.startsWith('image/')) return false;
        event.preventDefault();
        const at = v.posAtCoords({ left: event.clientX, top: event.clientY });
        if (at) v.dispatch(v.state.tr.setSelection(TextSelection.near(v.state.doc.resolve(at.pos))));
        insertContext.upload(file).then(
          (id) => insertNode(v.state, n.images!.create(null, n.image!.create({ data: { ref: { kind: 'file', file: id }, alt: file.name.replace(/\.[^.]+$/, '') } })), v.dispatch),
          (error: Error) => say(error.message),
        );
        return true;
      },
    },
  });
  // The server marked the live document in step with the page it stored, and this editor holds
  // exactly that: saved (after a member's save, a merge included, or a change made outside
  // followed). Refreshed after the Yjs transaction that told it.
  collab?.onInStep(() => {
    saved = view.state.doc;
    setTimeout(() => view.dispatch(view.state.tr));
  });
  addEventListener('beforeunload', (event) => {
    if (!view.state.doc.eq(saved)) event.preventDefault();
  });
  // Milliseconds from navigation to an editable page (docs/decisions/editor.md).
  root.dataset.readyMs = String(Math.round(performance.now()));
  root.dataset.ready = 'true';
  /** For tests and the console: the cursor in an empty paragraph at the end of the page. */
  const focusEnd = () => {
    const doc = view.state.doc;
    const last = doc.lastChild;
    const tr = view.state.tr;
    if (!(last?.type === n.paragraph && last.content.size === 0)) tr.insert(doc.content.size, n.paragraph!.create());
    view.dispatch(tr.setSelection(TextSelection.create(tr.doc, tr.doc.content.size - 1)).scrollIntoView());
    view.focus();
  };
  (window as unknown as { quireEditor: unknown }).quireEditor = { view, save, focusEnd, document: () => fromProseMirror(view.state.doc) };
  view.focus();
}

const root = document.getElementById('quire-editor');
if (root) {
  start(root).catch((error: unknown) => {
    const message = document.createElement('p');
    message.className = 'editor-error';
    message.setAttribute('role', 'alert');
    message.textContent = `The editor could not start: ${error instanceof Error ? error.message : String(error)}`;
    root.replaceChildren(message);
  });
}
