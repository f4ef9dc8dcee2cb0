/*
 * Drag and drop in the change request's page tree: a row dropped on the top quarter of
 * another goes before it, on the bottom quarter after it, anywhere else inside it (last).
 * A drop posts the page's `place` form (target, position); the server works out the
 * `update_page { into, at }` from the tree at the change request's head and answers with the
 * page again (303), so what is shown is always what was stored. The move buttons stay for
 * the keyboard and for browsers without drag and drop (most phones).
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

  tree.addEventListener('dragstart', (event) => {
    const row = rowOf(event.target);
    if (!row || !event.dataTransfer) return;
    dragged = row.parentElement as HTMLLIElement;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', dragged.dataset.treePage ?? '');
    dragged.classList.add('dragging');
  });
  tree.addEventListener('dragover', (event) => {
    const row = rowOf(event.target);
    const over = row?.parentElement;
    // Not on itself nor into its own subpages: the drop is not offered there.
    if (!row || !over || !dragged || dragged === over || dragged.contains(over)) return unmark();
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
    const box = row.getBoundingClientRect();
    const position = dropPosition(event.clientY - box.top, box.height);
    if (drop?.row === row && drop.position === position) return;
    unmark();
    drop = { row, position };
    row.classList.add(`drop-${position}`);
  });
  tree.addEventListener('dragleave', (event) => {
    if (!(event.relatedTarget instanceof Node) || !tree.contains(event.relatedTarget)) unmark();
  });
  tree.addEventListener('drop', (event) => {
    event.preventDefault();
    const page = dragged?.dataset.treePage;
    const target = drop?.row.parentElement?.dataset.treePage;
    const position = drop?.position;
    unmark();
    if (!page || !target || !position) return;
    tree.setAttribute('aria-busy', 'true');
    post(doc, `${pagesUrl}${encodeURIComponent(page)}/place`, { csrf, target, position });
  });
  tree.addEventListener('dragend', () => {
    unmark();
    dragged?.classList.remove('dragging');
    dragged = null;
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
