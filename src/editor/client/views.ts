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

  return {
    image: figure('image', (preview, node) => {
      const data = dataOf(node);
      const ref = data.ref as Ref | undefined;
      const img = document.createElement('img');
      img.alt = String(data.alt ?? '');
      if (ref?.kind === 'url' && ref.url) img.src = ref.url;
      else if (ref?.kind === 'file' && ref.file) ctx.fileUrl(ref.file).then((url) => (img.src = url), () => (img.alt = `${img.alt} (file not found)`));
      preview.append(img);
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
    button: atom('inline-button', (dom, node) => dom.append(String(dataOf(node).label ?? 'Button')), true),
    drawing: atom('opaque-block', (dom) => dom.append('Drawing (kept as is)')),
    openapi_operation: atom('opaque-block', (dom, node) => dom.append(`OpenAPI operation ${String(dataOf(node).method ?? '').toUpperCase()} ${String(dataOf(node).path ?? '')} (kept as is)`)),
    integration: atom('opaque-block', (dom) => dom.append('Embedded markup (kept as is, read-only)')),
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
