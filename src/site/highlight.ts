import type { HighlighterCore, ThemedToken } from 'shiki/core';
import { escapeHtml } from './html.ts';
import { LruCache } from '../content/store/snapshot.ts';

/*
 * Server-side syntax highlighting of code blocks with shiki (issue 20): the page carries
 * colored spans, no highlighter runs in the browser. Each token has its light color and
 * its dark one (`--shiki-dark`); the style sheet picks by the page's theme.
 *
 * Start-up stays cheap: the highlighter (the Oniguruma WASM engine and two themes) loads
 * on the first page that has a code block, each grammar (of those documentation uses,
 * below) on the first block in its language, and highlighted lines are kept by content,
 * so a block is tokenized once per process.
 */

/**
 * Grammars loaded, by shiki language id or alias (the grammar's other names, e.g. `sh`,
 * `js`, `yml`, come with it). Exported for the smoke suite (test/smoke), which checks on
 * the built server that each one highlights.
 */
export const LANGUAGES = {
  bash: () => import('@shikijs/langs/bash'),
  c: () => import('@shikijs/langs/c'),
  cpp: () => import('@shikijs/langs/cpp'),
  csharp: () => import('@shikijs/langs/csharp'),
  css: () => import('@shikijs/langs/css'),
  diff: () => import('@shikijs/langs/diff'),
  docker: () => import('@shikijs/langs/docker'),
  go: () => import('@shikijs/langs/go'),
  graphql: () => import('@shikijs/langs/graphql'),
  html: () => import('@shikijs/langs/html'),
  http: () => import('@shikijs/langs/http'),
  ini: () => import('@shikijs/langs/ini'),
  java: () => import('@shikijs/langs/java'),
  javascript: () => import('@shikijs/langs/javascript'),
  json: () => import('@shikijs/langs/json'),
  jsx: () => import('@shikijs/langs/jsx'),
  kotlin: () => import('@shikijs/langs/kotlin'),
  markdown: () => import('@shikijs/langs/markdown'),
  php: () => import('@shikijs/langs/php'),
  powershell: () => import('@shikijs/langs/powershell'),
  python: () => import('@shikijs/langs/python'),
  ruby: () => import('@shikijs/langs/ruby'),
  rust: () => import('@shikijs/langs/rust'),
  scss: () => import('@shikijs/langs/scss'),
  sql: () => import('@shikijs/langs/sql'),
  swift: () => import('@shikijs/langs/swift'),
  toml: () => import('@shikijs/langs/toml'),
  tsx: () => import('@shikijs/langs/tsx'),
  typescript: () => import('@shikijs/langs/typescript'),
  xml: () => import('@shikijs/langs/xml'),
  yaml: () => import('@shikijs/langs/yaml'),
} as const;

/** Names documentation writes that are not shiki ids or aliases. */
const EXTRA_ALIASES: Record<string, string> = { console: 'bash', terminal: 'bash', curl: 'bash', dockerfile: 'docker', golang: 'go', 'c++': 'cpp', 'c#': 'csharp', cs: 'csharp' };

// The -default variants: their colors keep 4.5:1 contrast on their backgrounds (WCAG AA).
export const LIGHT_THEME = 'github-light-default';
export const DARK_THEME = 'github-dark-default';

let loading: Promise<HighlighterCore> | null = null;
let loaded: HighlighterCore | null = null;
/** Every name a block may give (ids and aliases, of the grammars above) to its grammar id. */
let names = new Map<string, keyof typeof LANGUAGES>();
const grammars = new Set<string>();

/** The highlighter with its two themes, loaded on first call (grammars load as pages need them). */
export function loadHighlighter(): Promise<HighlighterCore> {
  loading ??= (async () => {
    const [{ createHighlighterCore }, { createOnigurumaEngine }, { bundledLanguagesInfo }] = await Promise.all([
      import('shiki/core'),
      import('shiki/engine/oniguruma'),
      import('shiki/langs'),
    ]);
    const highlighter = await createHighlighterCore({
      themes: [import('@shikijs/themes/github-light-default'), import('@shikijs/themes/github-dark-default')],
      langs: [],
      engine: createOnigurumaEngine(import('shiki/wasm')),
    });
    const known = new Map<string, keyof typeof LANGUAGES>();
    for (const info of bundledLanguagesInfo) {
      const all = [info.id, ...(info.aliases ?? [])];
      // A key above is the grammar's id or one of its aliases: bash is shiki's `shellscript`.
      const id = all.find((name): name is keyof typeof LANGUAGES => name in LANGUAGES);
      if (!id) continue;
      for (const name of all) known.set(name, id);
    }
    for (const [alias, id] of Object.entries(EXTRA_ALIASES)) known.set(alias, id as keyof typeof LANGUAGES);
    names = known;
    loaded = highlighter;
    return highlighter;
  })();
  return loading;
}

/** Loads the highlighter and the grammars a document's code blocks name (before rendering it). */
export async function prepareHighlighter(document: unknown): Promise<void> {
  const syntaxes = new Set<string>();
  collectSyntaxes(document, syntaxes, 0);
  if (syntaxes.size === 0) return;
  const highlighter = await loadHighlighter();
  const wanted = new Set<keyof typeof LANGUAGES>();
  for (const syntax of syntaxes) {
    const id = names.get(syntax.toLowerCase());
    if (id && !grammars.has(id)) wanted.add(id);
  }
  if (wanted.size === 0) return;
  await highlighter.loadLanguage(...(await Promise.all([...wanted].map((id) => LANGUAGES[id]()))));
  for (const id of wanted) grammars.add(id);
}

function collectSyntaxes(value: unknown, into: Set<string>, depth: number): void {
  if (depth > 64 || !value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectSyntaxes(item, into, depth + 1);
    return;
  }
  const node = value as { type?: unknown; data?: { syntax?: unknown }; nodes?: unknown; fragments?: unknown };
  if (node.type === 'code') {
    if (typeof node.data?.syntax === 'string' && node.data.syntax) into.add(node.data.syntax);
    return;
  }
  collectSyntaxes(node.nodes, into, depth + 1);
  collectSyntaxes(node.fragments, into, depth + 1);
}

/** The loaded grammar a block's `syntax` names, or null (then the block is plain text). */
export function languageOf(syntax: string): string | null {
  const id = names.get(syntax.toLowerCase());
  return id && grammars.has(id) ? id : null;
}

// Highlighted lines by language and code (a block is tokenized once per process).
const cache = new LruCache<string[]>(2048);

function tokenHtml(token: ThemedToken): string {
  const style = token.htmlStyle;
  const text = escapeHtml(token.content);
  if (!style) return text;
  const css = Object.entries(style)
    .map(([property, value]) => `${property}:${value}`)
    .join(';');
  return `<span style="${escapeHtml(css)}">${text}</span>`;
}

/**
 * The code's lines as HTML (colored spans, text escaped), or null when the highlighter is
 * not loaded yet or the language is not one it knows. Synchronous: the caller loads first.
 */
export function highlightLines(code: string, syntax: string): string[] | null {
  if (!loaded) return null;
  const lang = languageOf(syntax);
  if (!lang) return null;
  const key = `${lang}\n${code}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const { tokens } = loaded.codeToTokens(code, { lang, themes: { light: LIGHT_THEME, dark: DARK_THEME } });
  const lines = tokens.map((line) => line.map(tokenHtml).join(''));
  cache.set(key, lines);
  return lines;
}
