/*
 * Drag and drop in the change request's page tree: a row dropped on the top quarter of
 * another goes before it, on the bottom quarter after it, anywhere else inside it (last).
 * A drop posts the page's `place` form (target, position); the server works out the
 * `update_page { into, at }` from the tree at the change request's head and answers with the
 * page again (303), so what is shown is always what was stored. A mouse drags the row
 * (HTML drag and drop); a finger or a pen drags the handle (pointer events: phones have no
 * HTML drag and drop), with the same drop marks and the same post. The move buttons stay for
 * the keyboard and for pages without script.
 */

export type DropPosition = 'before' | 'after' | 'inside';

/** Where a drop at `offset` pixels from the top of a row `height` pixels high lands. */
export function dropPosition(offset: number, height: number): DropPosition {
  if (offset < height / 4) return 'before';
  if (offset > (height * 3) / 4) return 'after';
  return 'inside';
}

const MARKS = ['drop-before', 'drop-after', 'drop-inside'] as const;

export function initTreeDragAndDrop(doc: Document): void {
  const tree = doc.querySelector<HTMLUListElement>('ul.cr-tree[data-tree-editable]');
  const pagesUrl = tree?.dataset.pagesUrl;
  const csrf = doc.querySelector<HTMLInputElement>('input[name=csrf]')?.value;
  if (!tree || !pagesUrl || !csrf) return;
  tree.classList.add('dnd');
  for (const row of Array.from(tree.querySelectorAll<HTMLElement>('li[data-tree-page] > .row'))) {
    row.draggable = true;
    const handle = doc.createElement('span');
    handle.className = 'drag-handle';
    handle.setAttribute('aria-hidden', 'true');
    handle.title = 'Drag to move';
    handle.textContent = '⠿';
    row.prepend(handle);
  }

  let dragged: HTMLLIElement | null = null;
  let drop: { row: HTMLElement; position: DropPosition } | null = null;
  const unmark = () => {
    if (drop) drop.row.classList.remove(...MARKS);
    drop = null;
  };
  const rowOf = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLElement>('li[data-tree-page] > .row') : null);
  /** Marks where a drop at `clientY` over `row` lands; answers whether one is offered there. */
  const markAt = (row: HTMLElement | null, clientY: number): boolean => {
    const over = row?.parentElement;
    // Not on itself nor into its own subpages: the drop is not offered there.
    if (!row || !over || !dragged || dragged === over || dragged.contains(over)) {
      unmark();
      return false;
    }
    const box = row.getBoundingClientRect();
    const position = dropPosition(clientY - box.top, box.height);
    if (drop?.row === row && drop.position === position) return true;
    unmark();
    drop = { row, position };
    row.classList.add(`drop-${position}`);
    return true;
  };
  const place = () => {
    const page = dragged?.dataset.treePage;
    const target = drop?.row.parentElement?.dataset.treePage;
    const position = drop?.position;
    unmark();
    if (!page || !target || !position) return;
    tree.setAttribute('aria-busy', 'true');
    post(doc, `${pagesUrl}${encodeURIComponent(page)}/place`, { csrf, target, position });
  };
  const end = () => {
    unmark();
    dragged?.classList.remove('dragging');
    dragged = null;
  };

  let pointer: number | null = null;
  tree.addEventListener('dragstart', (event) => {
    const row = rowOf(event.target);
    // A finger already drags (below): no HTML drag from a long press as well.
    if (pointer !== null) return event.preventDefault();
    if (!row || !event.dataTransfer) return;
    dragged = row.parentElement as HTMLLIElement;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', dragged.dataset.treePage ?? '');
    dragged.classList.add('dragging');
  });
  tree.addEventListener('dragover', (event) => {
    if (!markAt(rowOf(event.target), event.clientY)) return;
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
  });
  tree.addEventListener('dragleave', (event) => {
    if (!(event.relatedTarget instanceof Node) || !tree.contains(event.relatedTarget)) unmark();
  });
  tree.addEventListener('drop', (event) => {
    event.preventDefault();
    place();
  });
  tree.addEventListener('dragend', end);

  // Touch and pen: the handle follows the pointer (captured, so moves reach it wherever the
  // finger goes); the row under the finger is found by position. The handle's
  // `touch-action: none` keeps the browser from scrolling instead.
  tree.addEventListener('pointerdown', (event) => {
    const handle = event.target instanceof Element ? event.target.closest<HTMLElement>('.drag-handle') : null;
    if (!handle || event.pointerType === 'mouse' || pointer !== null) return;
    event.preventDefault();
    pointer = event.pointerId;
    handle.setPointerCapture(event.pointerId);
    dragged = handle.closest<HTMLLIElement>('li[data-tree-page]');
    dragged?.classList.add('dragging');
  });
  tree.addEventListener('pointermove', (event) => {
    if (event.pointerId !== pointer) return;
    event.preventDefault();
    markAt(rowOf(doc.elementFromPoint(event.clientX, event.clientY)), event.clientY);
  });
  tree.addEventListener('pointerup', (event) => {
    if (event.pointerId !== pointer) return;
    pointer = null;
    place();
    end();
  });
  tree.addEventListener('pointercancel', (event) => {
    if (event.pointerId !== pointer) return;
    pointer = null;
    end();
  });
}

/** A plain form POST, as the page's own forms make: the server answers with the page. */
function post(doc: Document, action: string, fields: Record<string, string>): void {
  const form = doc.createElement('form');
  form.method = 'post';
  form.action = action;
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  doc.body.append(form);
  form.submit();
}
