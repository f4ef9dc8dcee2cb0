/*
 * How the atoms and figures look in the editor: images (a file of the change request is
 * shown from its download URL), files, embeds, math, page references, mentions, emoji,
 * buttons, and content kept opaque (read-only, labelled, never editable).
 */
import type { Node as PMNode } from 'prosemirror-model';
import type { NodeView, NodeViewConstructor } from 'prosemirror-view';

type Data = Record<string, unknown>;
type Ref = { kind?: string; url?: string; file?: string; page?: string; anchor?: string };

export interface ViewContext {
  fileUrl(id: string): Promise<string>;
  pageTitle(id: string): string | undefined;
}

function el(tag: string, className: string, text?: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const dataOf = (node: PMNode): Data => (node.attrs.data ?? {}) as Data;

function refLabel(ref: Ref | undefined, ctx: ViewContext): string {
  if (!ref) return 'nothing';
  if (ref.kind === 'page') return ctx.pageTitle(ref.page ?? '') ?? `page ${ref.page}`;
  if (ref.kind === 'url') return ref.url ?? '';
  if (ref.kind === 'file') return `file ${ref.file}`;
  if (ref.kind === 'anchor') return `#${ref.anchor}`;
  return ref.kind ?? 'reference';
}

function atom(className: string, render: (dom: HTMLElement, node: PMNode) => void, inline = false): (node: PMNode) => NodeView {
  return (node) => {
    const dom = el(inline ? 'span' : 'div', className);
    dom.contentEditable = 'false';
    render(dom, node);
    return {
      dom,
      update(next) {
        if (next.type !== node.type) return false;
        node = next;
        dom.replaceChildren();
        render(dom, node);
        return true;
      },
      ignoreMutation: () => true,
    };
  };
}

function emojiOf(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((hex) => parseInt(hex, 16)));
  } catch {
    return code;
  }
}

export function nodeViews(ctx: ViewContext): Record<string, NodeViewConstructor> {
  const figure = (kind: string, render: (preview: HTMLElement, node: PMNode) => void): NodeViewConstructor => (node) => {
    const dom = el('figure', `figure figure-${kind}`);
    const preview = el('div', 'figure-preview');
    preview.contentEditable = 'false';
    const contentDOM = el('div', 'figure-caption');
    dom.append(preview, contentDOM);
    render(preview, node);
    return {
      dom,
      contentDOM,
      update(next) {
        if (next.type !== node.type) return false;
        if (JSON.stringify(next.attrs.data) !== JSON.stringify(node.attrs.data)) {
          preview.replaceChildren();
          render(preview, next);
        }
        node = next;
        return true;
      },
      ignoreMutation: (mutation) => preview.contains(mutation.target),
    };
  };

  /** An image of a URL, or of a file of the change request shown from its download URL. */
  const imageOf = (ref: Ref | undefined, alt: string): HTMLImageElement => {
    const img = document.createElement('img');
    img.alt = alt;
    if (ref?.kind === 'url' && ref.url) img.src = ref.url;
    else if (ref?.kind === 'file' && ref.file) ctx.fileUrl(ref.file).then((url) => (img.src = url), () => (img.alt = `${img.alt} (file not found)`));
    return img;
  };

  return {
    image: figure('image', (preview, node) => {
      const data = dataOf(node);
      preview.append(imageOf(data.ref as Ref | undefined, String(data.alt ?? '')));
      if (typeof data.width === 'number') (preview.firstChild as HTMLImageElement).width = data.width;
      if (data.refDark) {
        // The dark-mode image beside it, small and labelled: the editor shows both whatever the theme.
        const dark = el('span', 'figure-dark');
        dark.append(el('span', 'figure-label', 'Dark mode:'), imageOf(data.refDark as Ref, `${String(data.alt ?? '')} (dark mode)`));
        preview.append(dark);
      }
    }),
    file: figure('file', (preview, node) => {
      preview.append(el('span', 'figure-label', `File: ${refLabel(dataOf(node).ref as Ref, ctx)}`));
    }),
    embed: figure('embed', (preview, node) => {
      preview.append(el('span', 'figure-label', `▶ Embed: ${String(dataOf(node).url ?? '')}`));
    }),
    math: atom('math-block', (dom, node) => dom.append(el('code', '', `$$ ${String(dataOf(node).formula ?? '')} $$`))),
    inline_math: atom('inline-math', (dom, node) => dom.append(el('code', '', `$${String(dataOf(node).formula ?? '')}$`)), true),
    content_ref: atom('content-ref', (dom, node) => dom.append(el('span', '', `→ ${refLabel(dataOf(node).ref as Ref, ctx)}`))),
    mention: atom('mention', (dom, node) => dom.append(`@${refLabel(dataOf(node).ref as Ref, ctx)}`), true),
    emoji: atom('emoji', (dom, node) => dom.append(emojiOf(String(dataOf(node).code ?? ''))), true),
    icon: atom('icon', (dom, node) => dom.append(`:${String(dataOf(node).icon ?? '')}:`), true),
    expression: atom('expression', (dom, node) => dom.append(el('code', '', `{{ ${String(dataOf(node).expression ?? '')} }}`)), true),
    button: atom('inline-button', (dom, node) => {
      const data = dataOf(node);
      const action = (data.action as { action?: string } | undefined)?.action;
      if (data.icon) dom.append(el('span', 'button-icon', `:${String(data.icon)}: `));
      dom.append(String(data.label ?? 'Button'));
      if (action) dom.append(el('span', 'button-action', ` (${action === 'ask' ? 'ask AI' : action})`));
      dom.title = action ? `Button: ${action}` : `Button → ${refLabel(data.ref as Ref | undefined, ctx)}`;
    }, true),
    // A drawing is shown by its image (GitBook's editor draws it; here it can be replaced by another image).
    drawing: atom('drawing', (dom, node) => {
      dom.append(el('span', 'figure-label', 'Drawing'), imageOf(dataOf(node).ref as Ref | undefined, 'Drawing'));
    }),
    openapi_operation: atom('openapi-operation', (dom, node) => {
      const data = dataOf(node);
      dom.append(el('span', 'openapi-method', String(data.method ?? '').toUpperCase()), ` ${String(data.path ?? '')}`, el('span', 'figure-label', ` · OpenAPI ${String((data.ref as { spec?: string } | undefined)?.spec ?? '')}`));
    }),
    integration: atom('opaque-block', (dom) => dom.append('Embedded markup (kept as is, read-only)')),
    // A cell of a content-ref column (a card's target): its page or URL, chosen in the block panel.
    table_ref_cell: (node, view, getPos) => {
      const dom = el('td', 'ref-cell');
      /** The kind of the cell's column, from the table's header row. */
      const columnKind = (): unknown => {
        const pos = getPos();
        if (pos === undefined) return undefined;
        const $pos = view.state.doc.resolve(pos);
        return $pos.depth >= 2 ? $pos.node($pos.depth - 1).firstChild?.maybeChild($pos.index())?.attrs.kind : undefined;
      };
      dom.contentEditable = 'false';
      const render = (cell: PMNode) => {
        const files = cell.attrs.files as string[] | null;
        if (Array.isArray(files) || columnKind() === 'files') {
          // A files cell (a card's cover): its image, from the change request's download URL.
          dom.replaceChildren();
          const file = files?.[0];
          if (file) dom.append(imageOf({ kind: 'file', file }, 'Cover image'));
          else dom.append('No cover image');
          dom.classList.add('cover-cell');
          dom.classList.toggle('ref-cell-empty', !file);
          return;
        }
        const ref = cell.attrs.ref as Ref | null;
        dom.textContent = ref ? `→ ${refLabel(ref, ctx)}` : 'No link';
        dom.classList.toggle('ref-cell-empty', !ref);
      };
      render(node);
      return {
        dom,
        update(next) {
          if (next.type !== node.type) return false;
          node = next;
          render(node);
          return true;
        },
        ignoreMutation: () => true,
      };
    },
    opaque_block: atom('opaque-block', (dom, node) => {
      const json = node.attrs.json as { type?: string; object?: string } | null;
      dom.append(`Content the editor cannot change: ${json?.type ?? json?.object ?? 'unknown'} (kept as is)`);
    }),
    opaque_inline: atom('opaque-inline', (dom, node) => {
      const json = node.attrs.json as { type?: string } | null;
      dom.append(`[${json?.type ?? 'inline'}]`);
    }, true),
  };
}
