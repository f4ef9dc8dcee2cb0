/*
 * The slash menu, and the block handle (below) that moves the cursor's block.
 *
 * The slash menu: typing `/` (at the start of a block or after a space) lists every block and
 * inline kind; typing filters, arrows move, Enter inserts, Escape closes. A listbox with
 * aria-activedescendant, so screen readers follow it while focus stays in the text.
 */
import { NodeSelection, Plugin, PluginKey, TextSelection, type EditorState, type Transaction } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
import type { Node as PMNode } from 'prosemirror-model';
import { CONTAINER_OF_NODE } from '../schema.ts';
import { KINDS, type Kind } from './blocks.ts';

export const slashKey = new PluginKey<{ dismissed: number | null }>('slash');

interface Match {
  from: number;
  to: number;
  query: string;
}

function matchAt(state: EditorState): Match | null {
  const { $from, empty } = state.selection;
  if (!empty || !$from.parent.isTextblock || $from.parent.type.spec.code) return null;
  const before = $from.parent.textBetween(0, $from.parentOffset, undefined, '\ufffc');
  const found = /(?:^|\s)\/([\w-]{0,20})$/.exec(before);
  if (!found) return null;
  const length = found[1]!.length + 1;
  return { from: $from.pos - length, to: $from.pos, query: found[1]!.toLowerCase() };
}

export function filterKinds(query: string): Kind[] {
  if (!query) return KINDS;
  return KINDS.filter((kind) => `${kind.id} ${kind.label} ${kind.keywords}`.toLowerCase().includes(query));
}

export function slashMenu(run: (view: EditorView, kind: Kind, match: Match) => void): Plugin {
  let menu: HTMLElement | null = null;
  let items: Kind[] = [];
  let active = 0;
  let current: Match | null = null;

  const close = () => {
    menu?.remove();
    menu = null;
    current = null;
  };

  const render = (view: EditorView) => {
    if (!current) return close();
    items = filterKinds(current.query);
    if (items.length === 0) return close();
    active = Math.min(active, items.length - 1);
    if (!menu) {
      menu = document.createElement('ul');
      menu.className = 'slash-menu';
      menu.id = 'slash-menu';
      menu.setAttribute('role', 'listbox');
      menu.setAttribute('aria-label', 'Insert a block');
      document.body.append(menu);
    }
    menu.replaceChildren(
      ...items.map((kind, i) => {
        const li = document.createElement('li');
        li.id = `slash-${kind.id}`;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', String(i === active));
        li.dataset.kind = kind.id;
        li.textContent = kind.label;
        li.addEventListener('mousedown', (event) => {
          event.preventDefault();
          const match = current;
          close();
          if (match) run(view, kind, match);
        });
        return li;
      }),
    );
    view.dom.setAttribute('aria-activedescendant', `slash-${items[active]!.id}`);
    const coords = view.coordsAtPos(current.from);
    menu.style.left = `${Math.max(8, Math.min(coords.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - 260))}px`;
    menu.style.top = `${coords.bottom + window.scrollY + 4}px`;
    menu.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  };

  return new Plugin({
    key: slashKey,
    state: {
      init: (): { dismissed: number | null } => ({ dismissed: null }),
      apply: (tr, value) => {
        const meta = tr.getMeta(slashKey) as { dismissed: number | null } | undefined;
        if (meta) return meta;
        return value.dismissed === null ? value : { dismissed: tr.mapping.map(value.dismissed) };
      },
    },
    view: () => ({
      update(view) {
        const match = matchAt(view.state);
        const dismissed = slashKey.getState(view.state)?.dismissed;
        if (!match || match.from === dismissed) {
          view.dom.removeAttribute('aria-activedescendant');
          return close();
        }
        if (!current || current.from !== match.from) active = 0;
        current = match;
        render(view);
      },
      destroy: close,
    }),
    props: {
      handleKeyDown(view, event) {
        if (!menu || !current) return false;
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          active = (active + (event.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
          render(view);
          return true;
        }
        if (event.key === 'Enter' || event.key === 'Tab') {
          const kind = items[active];
          const match = current;
          close();
          if (kind && match) run(view, kind, match);
          return true;
        }
        if (event.key === 'Escape') {
          view.dispatch(view.state.tr.setMeta(slashKey, { dismissed: current.from }));
          close();
          return true;
        }
        return false;
      },
    },
  });
}

/* ---------------------------------------------------------------- the block handle */

/**
 * Moves the block at `index` of its container to stand before the block now at `to` (0 to the
 * number of blocks): the same node, keys and all, so only the order changes. The container is
 * the document, or the node at `parentPos` (a list, a hint, a column…): a block stays in its
 * container, where it is allowed.
 */
export function moveBlock(state: EditorState, index: number, to: number, parentPos = -1): Transaction | null {
  const parent = parentPos < 0 ? state.doc : state.doc.nodeAt(parentPos);
  if (!parent || index < 0 || index >= parent.childCount || to < 0 || to > parent.childCount || to === index || to === index + 1) return null;
  const start = parentPos < 0 ? 0 : parentPos + 1;
  const from = start + offsetOf(parent, index);
  const node = parent.child(index);
  const at = start + offsetOf(parent, to);
  const tr = state.tr.delete(from, from + node.nodeSize);
  const target = to > index ? at - node.nodeSize : at;
  tr.insert(target, node);
  const inside = node.isAtom ? NodeSelection.create(tr.doc, target) : TextSelection.findFrom(tr.doc.resolve(target + 1), 1, true);
  return (inside ? tr.setSelection(inside) : tr).scrollIntoView();
}

const offsetOf = (parent: PMNode, index: number): number => {
  let offset = 0;
  for (let i = 0; i < index; i++) offset += parent.child(i).nodeSize;
  return offset;
};

const LISTS = new Set(['list_unordered', 'list_ordered', 'list_tasks']);

/** The block the handle moves: its container's position (-1: the document) and its index there. */
export interface Movable {
  parentPos: number;
  index: number;
}

/**
 * The innermost block around the selection that has siblings in a container of blocks (the
 * document, a list item, a hint, a quote, a tab, a column, an update…), or a list item in its
 * list: a paragraph alone in its list item moves the item, a second paragraph moves within
 * the item. Cells, captions and code lines move with their block. A top-level block otherwise.
 */
export function movableAt(state: EditorState): Movable {
  const { $from } = state.selection;
  const deepest = state.selection instanceof NodeSelection ? $from.depth + 1 : $from.depth;
  for (let d = deepest; d >= 2; d--) {
    const parent = $from.node(d - 1);
    const container = CONTAINER_OF_NODE[parent.type.name] !== undefined || LISTS.has(parent.type.name);
    if (container && parent.childCount > 1) return { parentPos: $from.before(d - 1), index: $from.index(d - 1) };
  }
  return { parentPos: -1, index: $from.index(0) };
}

/**
 * A handle beside the cursor's block (movableAt: a top-level block, or a block within its
 * container): dragged with a finger, a pen or a mouse
 * (pointer events, like the page tree's handle in tree-dnd.ts; it does not scroll the page),
 * it moves the block where a line shows; focused, ↑ and ↓ move it, as Alt+↑ / Alt+↓ do in the
 * text.
 */
export function blockHandle(): Plugin {
  const moveBy = (view: EditorView, delta: number): boolean => {
    const { index, parentPos } = movableAt(view.state);
    const tr = moveBlock(view.state, index, delta < 0 ? index - 1 : index + 2, parentPos);
    if (!tr) return false;
    view.dispatch(tr);
    return true;
  };
  return new Plugin({
    props: {
      handleKeyDown(view, event) {
        if (!event.altKey || event.ctrlKey || event.metaKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return false;
        moveBy(view, event.key === 'ArrowUp' ? -1 : 1);
        return true;
      },
    },
    view(view) {
      const surface = view.dom.parentElement!;
      const handle = document.createElement('button');
      handle.type = 'button';
      handle.className = 'block-handle';
      handle.textContent = '⠿';
      handle.setAttribute('aria-label', 'Move block: drag, or press the up and down arrows');
      handle.title = 'Drag to move the block (Alt+↑ / Alt+↓)';
      const line = document.createElement('div');
      line.className = 'block-drop-line';
      line.hidden = true;
      surface.append(handle, line);

      const containerOf = (parentPos: number): PMNode | null => (parentPos < 0 ? view.state.doc : view.state.doc.nodeAt(parentPos));
      const blockTop = (index: number, parentPos: number): { top: number; bottom: number; left: number } | null => {
        const parent = containerOf(parentPos);
        if (!parent || index >= parent.childCount) return null;
        const dom = view.nodeDOM((parentPos < 0 ? 0 : parentPos + 1) + offsetOf(parent, index));
        if (!(dom instanceof HTMLElement)) return null;
        const box = dom.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, left: box.left };
      };
      const place = () => {
        const { index, parentPos } = movableAt(view.state);
        const box = blockTop(index, parentPos);
        handle.hidden = !box;
        if (!box) return;
        const frame = surface.getBoundingClientRect();
        handle.style.top = `${box.top - frame.top}px`;
        // A nested block's handle stands just left of it (its container's indent), a top-level one at the edge.
        handle.style.left = parentPos < 0 ? '' : `${Math.max(0, box.left - frame.left - handle.offsetWidth)}px`;
        handle.classList.toggle('nested', parentPos >= 0);
      };
      /** Where a drop at `clientY` puts the block: before the sibling whose middle is below it. */
      const dropAt = (clientY: number, parentPos: number): number => {
        const count = containerOf(parentPos)?.childCount ?? 0;
        for (let i = 0; i < count; i++) {
          const box = blockTop(i, parentPos);
          if (box && clientY < (box.top + box.bottom) / 2) return i;
        }
        return count;
      };

      let dragging: { pointer: number; index: number; parentPos: number; to: number } | null = null;
      handle.addEventListener('pointerdown', (event) => {
        if (event.button !== 0) return;
        event.preventDefault();
        handle.setPointerCapture(event.pointerId);
        dragging = { pointer: event.pointerId, ...movableAt(view.state), to: -1 };
        handle.classList.add('dragging');
      });
      // Near the window's top or bottom edge, a drag scrolls the page (a long page on a phone).
      let lastY = 0;
      let scrolling = 0;
      const autoScroll = () => {
        scrolling = 0;
        if (!dragging) return;
        const edge = 72;
        const step = lastY < edge ? -12 : lastY > innerHeight - edge ? 12 : 0;
        if (step === 0) return;
        scrollBy(0, step);
        mark(lastY);
        scrolling = requestAnimationFrame(autoScroll);
      };
      const mark = (clientY: number) => {
        if (!dragging) return;
        dragging.to = dropAt(clientY, dragging.parentPos);
        const count = containerOf(dragging.parentPos)?.childCount ?? 0;
        const edge = dragging.to < count ? blockTop(dragging.to, dragging.parentPos)?.top : blockTop(count - 1, dragging.parentPos)?.bottom;
        line.hidden = edge === undefined;
        if (edge === undefined) return;
        const frame = surface.getBoundingClientRect();
        line.style.top = `${edge - frame.top - 2}px`;
        // Among a container's blocks, the line starts where they do.
        const left = dragging.parentPos >= 0 ? blockTop(0, dragging.parentPos)?.left : undefined;
        line.style.left = left === undefined ? '' : `${left - frame.left}px`;
      };
      handle.addEventListener('pointermove', (event) => {
        if (!dragging || event.pointerId !== dragging.pointer) return;
        lastY = event.clientY;
        mark(lastY);
        if (!scrolling) scrolling = requestAnimationFrame(autoScroll);
      });
      const finish = (event: PointerEvent, drop: boolean) => {
        if (!dragging || event.pointerId !== dragging.pointer) return;
        const { index, parentPos, to } = dragging;
        dragging = null;
        line.hidden = true;
        handle.classList.remove('dragging');
        const tr = drop && to >= 0 ? moveBlock(view.state, index, to, parentPos) : null;
        if (tr) view.dispatch(tr);
        view.focus();
      };
      handle.addEventListener('pointerup', (event) => finish(event, true));
      handle.addEventListener('pointercancel', (event) => finish(event, false));
      handle.addEventListener('keydown', (event) => {
        if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
        event.preventDefault();
        moveBy(view, event.key === 'ArrowUp' ? -1 : 1);
      });
      place();
      // Images loading and the window's width move blocks without a transaction.
      const resized = new ResizeObserver(() => place());
      resized.observe(view.dom);
      return {
        update: place,
        destroy() {
          resized.disconnect();
          handle.remove();
          line.remove();
        },
      };
    },
  });
}
