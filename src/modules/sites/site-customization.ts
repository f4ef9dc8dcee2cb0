import type { CustomizationWire } from './sites.schemas.ts';

/*
 * A site's customization, the one rule (issue 33): what the API serves as a site's or a
 * site space's effective customization and what the published reader renders with come
 * from these functions, so they cannot disagree. Pure: stored JSON in, objects out.
 *
 * Layers, bottom up: DEFAULT_CUSTOMIZATION, the site's stored customization, the site
 * space's stored overrides. `ownCustomization` is what the owner set (site and site
 * space, no defaults): the reader reads that, so that an unset field keeps its rendering
 * fallback (an unset theme follows the visitor's system, docs/decisions/published-sites.md);
 * `effectiveCustomization` is the same with the defaults under it, as the API serves it.
 */

/** What a site's customization is before anyone sets anything (docs/decisions/sites.md). */
export const DEFAULT_CUSTOMIZATION: CustomizationWire = {
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#02B47D', dark: '#02B47D' },
    warningColor: { light: '#FE9A00', dark: '#FE9A00' },
    dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
    sidebar: { background: 'default', list: 'default' },
    search: 'prominent',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  pdf: { enabled: true },
  feedback: { enabled: false },
  ai: { mode: 'none' },
  advancedCustomization: { enabled: true },
  git: { showEditLink: false },
  pagination: { enabled: true },
  trademark: { enabled: false },
  pageActions: { items: ['markdown'], externalAI: false, markdown: true, mcp: false },
  externalLinks: { target: 'self' },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: true },
};

type Json = Record<string, unknown>;

const isPlainObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Keys whose values are unions (an icon or an emoji, a font name or a custom font, a content reference, a logo's pair): replaced whole. */
const WHOLE = new Set(['favicon', 'font', 'monospaceFont', 'primaryLink', 'logo', 'tint', 'link']);

/** Objects merge key by key down to this depth (a field's value below it is one value). */
const MERGE_DEPTH = 2;

/**
 * `over` laid on `base`: plain objects merge key by key (to MERGE_DEPTH, WHOLE keys
 * excepted), anything else (arrays included) replaces. A null in `over` removes the key
 * (site-space overrides reset that way); undefined is ignored.
 */
export function mergeCustomization(base: Json, over: Json, depth = 0): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else if (isPlainObject(value) && isPlainObject(out[key]) && depth < MERGE_DEPTH && !WHOLE.has(key)) {
      out[key] = mergeCustomization(out[key] as Json, value, depth + 1);
    } else out[key] = value;
  }
  return out;
}

/** A stored customization column: its object, `{}` when empty, not JSON or not an object. */
export function parseCustomization(stored: string | null | undefined): Json {
  if (!stored || stored === '{}') return {};
  try {
    const value: unknown = JSON.parse(stored);
    return isPlainObject(value) ? value : {};
  } catch {
    return {};
  }
}

/** What the owner set: the site's customization with the site space's overrides laid on (no defaults). */
export function ownCustomization(site: Json, overrides: Json = {}): Json {
  return Object.keys(overrides).length === 0 ? site : mergeCustomization(site, overrides);
}

/** What the owner set, with the defaults filled in under it (GitBook's required fields always there). */
export function withDefaults(own: Json): CustomizationWire {
  return mergeCustomization(DEFAULT_CUSTOMIZATION as unknown as Json, own) as unknown as CustomizationWire;
}

/** The effective customization of a site (no overrides) or of one of its site spaces, from the stored columns. */
export function effectiveCustomization(siteStored: string, overridesStored?: string): CustomizationWire {
  return withDefaults(ownCustomization(parseCustomization(siteStored), parseCustomization(overridesStored)));
}

/** Drops overrides that became empty objects (a favicon of {} is a value: "no favicon"). */
export function pruneEmptyOverrides(value: Json): Json {
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    if (isPlainObject(v) && key !== 'favicon') {
      const inner = pruneEmptyOverrides(v);
      if (Object.keys(inner).length > 0) out[key] = inner;
    } else out[key] = v;
  }
  return out;
}
