/*
 * The slash menu: typing `/` (at the start of a block or after a space) lists every block and
 * inline kind; typing filters, arrows move, Enter inserts, Escape closes. A listbox with
 * aria-activedescendant, so screen readers follow it while focus stays in the text.
 */
import { Plugin, PluginKey, type EditorState } from 'prosemirror-state';
import type { EditorView } from 'prosemirror-view';
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
