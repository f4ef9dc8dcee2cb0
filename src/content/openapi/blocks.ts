/** Documents are immutable and cached as objects: each is walked once. */
const seen = new WeakMap<readonly unknown[], string[]>();

/** The slugs of the specs a document's OpenAPI blocks name (openapi-operation, -schemas, -webhook), in order. */
export function openapiSpecsOf(nodes: readonly unknown[] | undefined): string[] {
  if (!nodes) return [];
  const known = seen.get(nodes);
  if (known) return known;
  const slugs = walkSpecs(nodes);
  seen.set(nodes, slugs);
  return slugs;
}

function walkSpecs(nodes: readonly unknown[]): string[] {
  const found = new Set<string>();
  const walk = (list: readonly unknown[] | undefined) => {
    for (const node of list ?? []) {
      if (!node || typeof node !== 'object') continue;
      const n = node as { type?: string; data?: { ref?: { kind?: string; spec?: unknown } }; nodes?: unknown[]; fragments?: unknown[] };
      if (typeof n.type === 'string' && n.type.startsWith('openapi') && n.data?.ref?.kind === 'openapi' && typeof n.data.ref.spec === 'string') found.add(n.data.ref.spec);
      if (Array.isArray(n.nodes)) walk(n.nodes);
      if (Array.isArray(n.fragments)) walk(n.fragments);
    }
  };
  walk(nodes);
  return [...found];
}
