/*
 * The comparison behind the converter's lossless check (convert.ts): a GitBook node as a
 * string equal for two nodes holding the same content, up to what ProseMirror cannot tell apart.
 */
type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A GitBook node as a string that is equal for two nodes holding the same content. What it
 * sets aside is what ProseMirror cannot tell apart: the order of object keys, the order of a
 * leaf's marks, leaves and text nodes split where nothing differs (adjacent leaves with the
 * same marks, adjacent text nodes without keys), empty leaves, and the order of a table's
 * cell fragments (they are found by name).
 */
export function canonical(value: unknown): string {
  return JSON.stringify(normalize(value));
}

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const key of Object.keys(value).sort()) out[key] = normalize(value[key]);
  if (out.object === 'leaf' && Array.isArray(out.marks)) out.marks = [...out.marks].sort((a, b) => compareStrings(JSON.stringify(a), JSON.stringify(b)));
  if (out.type === 'table' && Array.isArray(out.fragments)) {
    out.fragments = [...out.fragments].sort((a, b) => compareStrings(String((a as Json)?.fragment), String((b as Json)?.fragment)));
  }
  if (Array.isArray(out.nodes)) out.nodes = joinTexts(out.nodes as unknown[]);
  return out;
}

function joinTexts(nodes: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const node of nodes) {
    if (!isObject(node) || node.object !== 'text' || !Array.isArray(node.leaves)) {
      out.push(node);
      continue;
    }
    const leaves: Json[] = [];
    for (const leaf of node.leaves as Json[]) {
      if (isObject(leaf) && leaf.text === '') continue;
      const last = leaves[leaves.length - 1];
      if (last && isObject(leaf) && JSON.stringify(last.marks) === JSON.stringify(leaf.marks) && Object.keys(leaf).length === 3) last.text = String(last.text) + String(leaf.text);
      else leaves.push(isObject(leaf) ? { ...leaf } : leaf);
    }
    if (leaves.length === 0) continue;
    const previous = out[out.length - 1];
    if (isObject(previous) && previous.object === 'text' && previous.key === undefined && node.key === undefined && Object.keys(node).length === 2) {
      const joined = [...(previous.leaves as Json[]), ...leaves];
      out[out.length - 1] = { ...previous, leaves: joinTexts([{ object: 'text', leaves: joined }]).flatMap((t) => ((t as Json).leaves as Json[])) };
    } else {
      out.push({ ...node, leaves });
    }
  }
  return out;
}
