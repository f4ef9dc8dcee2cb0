import { safeColor } from './html.ts';

/*
 * The published site's style sheet, inline in every page (one request per page, and the
 * page HTML is cached anyway). Light and dark themes are two sets of CSS variables chosen
 * by `data-theme` on <html>; a site's colors (customization.styling) override the
 * variables in a small second <style> built by themeOverrides().
 */
export const SITE_CSS = `
:root,[data-theme=light]{color-scheme:light;--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--border:#e3e6ea;--subtle:#f6f8fa;
--primary:#2f5bd8;--primary-fg:#ffffff;--tint:#eef2fd;--code-bg:#ffffff;
--info:#3b82f6;--success:#16a34a;--warning:#d97706;--danger:#dc2626}
[data-theme=dark]{color-scheme:dark;--bg:#0f1115;--fg:#e6e8eb;--muted:#a4adb7;--border:#2a2f37;--subtle:#171a20;
--primary:#7aa2ff;--primary-fg:#0f1115;--tint:#1a2133;--code-bg:#0d1117;
--info:#60a5fa;--success:#4ade80;--warning:#fbbf24;--danger:#f87171}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,Ubuntu,sans-serif}
a{color:var(--primary);text-decoration:none}a:hover{text-decoration:underline}
/* A link to a markdown file that is no page (no href): text, not a link's colour; a dotted underline and its title tell why. */
[data-unresolved-link],[data-unresolved-link]:hover{color:inherit;text-decoration:underline dotted var(--muted);text-underline-offset:.2em;cursor:help}
.announcement{padding:.5rem 1rem;text-align:center;font-size:.9rem;background:var(--primary);color:var(--primary-fg)}
.announcement a{color:inherit;text-decoration:underline;margin-left:.5rem}
.announcement-warning{background:var(--warning);color:#111}.announcement-danger{background:var(--danger);color:#fff}
.announcement-success{background:var(--success);color:#fff}
header.site-header{position:sticky;top:0;z-index:10;background:var(--bg);border-bottom:1px solid var(--border)}
.header-bar{display:flex;flex-wrap:nowrap;align-items:center;gap:1.5rem;max-width:1400px;margin:0 auto;padding:.75rem 1.5rem;min-width:0}
.site-title{display:flex;align-items:center;gap:.6rem;font-weight:650;font-size:1.1rem;color:var(--fg);min-width:0;white-space:nowrap}
.site-title span{overflow:hidden;text-overflow:ellipsis}
.skip-link{position:absolute;left:-999px;top:.5rem;z-index:30;background:var(--bg);padding:.4rem .8rem;border:1px solid var(--border);border-radius:6px}.skip-link:focus{left:.5rem}
.menu-toggle{display:none;border:1px solid var(--border);background:var(--subtle);color:var(--fg);border-radius:6px;width:2.4rem;height:2.4rem;font-size:1.2rem;line-height:1;cursor:pointer;flex:none}
.drawer-backdrop{display:none}
.search-dropdown{position:absolute;right:0;top:calc(100% + .35rem);width:min(32rem,calc(100vw - 1rem));max-height:70vh;overflow-y:auto;background:var(--bg);border:1px solid var(--border);border-radius:8px;box-shadow:0 8px 28px rgba(0,0,0,.18);padding:.35rem;z-index:40}
.search-dropdown[hidden]{display:none}
.search-dropdown a{display:block;padding:.4rem .6rem;border-radius:6px;color:var(--fg);text-decoration:none}
.search-dropdown a.active,.search-dropdown a:hover{background:var(--tint)}
.so-title{font-weight:600}.so-space{margin-left:.5rem;color:var(--muted);font-size:.8rem}
.so-section{padding-left:1.4rem!important;font-size:.88rem}.so-heading{display:block;font-weight:600}.so-body{display:block;color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.so-empty{margin:.4rem .6rem;color:var(--muted)}.so-all{font-size:.85rem;color:var(--primary)!important;border-top:1px solid var(--border);margin-top:.25rem}
mark{background:color-mix(in srgb,var(--warning) 35%,transparent);color:inherit;border-radius:2px}
.breadcrumbs ol{list-style:none;display:flex;flex-wrap:wrap;gap:.4rem;margin:0 0 .25rem;padding:0;font-size:.85rem;color:var(--muted)}
.breadcrumbs li+li::before{content:"/";margin-right:.4rem}
.page-actions{display:flex;gap:.5rem;float:right;margin:.6rem 0 0 1rem}
.page-action{border:1px solid var(--border);background:var(--bg);color:var(--fg);border-radius:6px;padding:.2rem .6rem;font:inherit;font-size:.8rem;cursor:pointer}
html:not(.js) button.page-action{display:none}
.outline-mobile{display:none;border:1px solid var(--border);border-radius:8px;padding:.4rem .9rem;margin:1rem 0;font-size:.9rem}
.outline-mobile summary{cursor:pointer;font-weight:600}.outline-mobile ul{list-style:none;margin:.4rem 0;padding:0}.outline-mobile li{padding:.15rem 0}
.outline-mobile .level-2{padding-left:.8rem}.outline-mobile .level-3{padding-left:1.6rem}
.site-title img{height:28px;width:auto}
.site-search{margin-left:auto;position:relative;min-width:0}.site-search input{width:14rem;max-width:40vw;padding:.35rem .6rem;border:1px solid var(--border);border-radius:6px;background:var(--bg);color:var(--fg);font:inherit}
.site-search+.header-links{margin-left:0}
.search-count{color:var(--muted)}.search-results{padding-left:1.2rem}.search-results li{margin:0 0 1.25rem}
.search-result{font-weight:600;font-size:1.05rem}.search-space{color:var(--muted);font-size:.85rem}.search-results p{margin:.3rem 0;color:var(--muted)}
.header-links{display:flex;gap:1.25rem;margin-left:auto;list-style:none;padding:0;margin-top:0;margin-bottom:0}
.header-links a{color:var(--muted)}.header-links a:hover{color:var(--fg)}
.header-links .button{padding:.3rem .8rem;border-radius:6px;background:var(--primary);color:var(--primary-fg)}
.header-links details{position:relative}.header-links summary{cursor:pointer;color:var(--muted)}
.header-links details ul{position:absolute;right:0;background:var(--bg);border:1px solid var(--border);border-radius:6px;list-style:none;padding:.5rem 1rem;min-width:10rem}
.theme-toggle{border:1px solid var(--border);background:var(--subtle);color:var(--fg);border-radius:6px;width:2.4rem;height:2.4rem;cursor:pointer;font:inherit;font-size:1.1rem;flex:none}
.header-bar .theme-toggle{margin-left:0}
.header-links+.theme-toggle{margin-left:0}
.no-links .theme-toggle{margin-left:auto}
nav.sections{max-width:1400px;margin:0 auto;padding:0 1.5rem;display:flex;gap:1.25rem;overflow-x:auto}
nav.sections a,nav.sections summary{display:inline-block;padding:.5rem 0;color:var(--muted);border-bottom:2px solid transparent;white-space:nowrap;cursor:pointer}
nav.sections a[aria-current=page]{color:var(--fg);border-bottom-color:var(--primary);font-weight:600}
nav.sections details{position:relative}
nav.sections details div{position:absolute;background:var(--bg);border:1px solid var(--border);border-radius:6px;padding:.25rem 1rem;display:flex;flex-direction:column;z-index:11}
.layout{display:grid;grid-template-columns:280px minmax(0,1fr) 220px;gap:2.5rem;max-width:1400px;margin:0 auto;padding:0 1.5rem}
aside.sidebar{position:sticky;top:7rem;align-self:start;max-height:calc(100vh - 8rem);overflow-y:auto;padding:1.5rem 0;font-size:.93rem}
.space-switcher{margin-bottom:1rem}
.space-switcher ul{list-style:none;margin:0;padding:.25rem;border:1px solid var(--border);border-radius:8px;display:flex;flex-direction:column;gap:2px}
.space-switcher a{display:block;padding:.3rem .6rem;border-radius:6px;color:var(--muted)}
.space-switcher a[aria-current=true]{background:var(--tint);color:var(--fg);font-weight:600}
.page-tree,.page-tree ul{list-style:none;margin:0;padding:0}
.page-tree ul{padding-left:.9rem;border-left:1px solid var(--border);margin-left:.6rem}
.page-tree a,.page-tree .group-title{display:block;padding:.28rem .6rem;border-radius:6px;color:var(--muted)}
.page-tree a:hover{background:var(--subtle);text-decoration:none;color:var(--fg)}
.page-tree a[aria-current=page]{background:var(--tint);color:var(--primary);font-weight:600}
.page-tree .group-title{font-weight:650;color:var(--fg);text-transform:none;margin-top:1rem;font-size:.85rem}
.page-tree details>summary{list-style:none;cursor:pointer}.page-tree details>summary::-webkit-details-marker{display:none}
.page-tree details>summary a{display:flex;justify-content:space-between}
.page-tree details>summary a::after{content:"›";transition:transform .15s}
.page-tree details[open]>summary a::after{transform:rotate(90deg)}
main.content{padding:2rem 0 4rem;min-width:0}
main.content h1{font-size:2.2rem;line-height:1.2;margin:.5rem 0 .5rem}
.page-description{color:var(--muted);font-size:1.1rem;margin:0 0 2rem}
main.content h2,main.content h3,main.content h4{line-height:1.3;margin:2rem 0 .75rem;scroll-margin-top:7rem}
.anchor{margin-left:.4rem;opacity:0;color:var(--muted)}h2:hover .anchor,h3:hover .anchor,h4:hover .anchor{opacity:1}
code,kbd,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
:not(pre)>code{background:var(--code-bg);padding:.1rem .35rem;border-radius:4px;overflow-wrap:break-word}
code.directive{white-space:pre-wrap;overflow-wrap:anywhere}.html-block>code.directive{display:block;width:fit-content;max-width:100%;box-sizing:border-box;margin:.5rem 0}
kbd{border:1px solid var(--border);border-bottom-width:2px;border-radius:4px;padding:0 .3rem}
.code{margin:1rem 0;border:1px solid var(--border);border-radius:8px;overflow:hidden;background:var(--code-bg)}
.code-head{display:flex;align-items:center;gap:.5rem;min-height:2.1rem;padding:0 .4rem 0 .9rem;border-bottom:1px solid var(--border);background:var(--subtle)}
.code-title{font-size:.85rem;color:var(--muted);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.copy-code{margin-left:auto;border:1px solid var(--border);background:var(--bg);color:var(--fg);border-radius:6px;padding:.1rem .55rem;font:inherit;font-size:.8rem;cursor:pointer}
html:not(.js) .copy-code{display:none}
.code pre{margin:0;padding:.9rem 0;overflow-x:auto;background:var(--code-bg);counter-reset:line;line-height:1.55}
.code pre:focus-visible{outline:2px solid var(--primary);outline-offset:-2px}
.code .line{display:inline-block;min-width:100%;padding:0 .9rem}
.code pre.wrap{white-space:pre-wrap;overflow-wrap:anywhere}
.code pre.numbered .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2.2em;margin-right:1em;text-align:right;color:var(--muted);user-select:none}
.code .line.marked{background:color-mix(in srgb,var(--warning) 18%,transparent)}
[data-theme=dark] .shiki span{color:var(--shiki-dark)!important}
blockquote{margin:1rem 0;padding:.1rem 1rem;border-left:3px solid var(--border);color:var(--muted)}
.hint{margin:1rem 0;padding:.2rem 1rem;border-radius:8px;border:1px solid;border-left-width:4px}
.hint-info{border-color:var(--info);background:color-mix(in srgb,var(--info) 9%,transparent)}
.hint-success{border-color:var(--success);background:color-mix(in srgb,var(--success) 9%,transparent)}
.hint-warning{border-color:var(--warning);background:color-mix(in srgb,var(--warning) 9%,transparent)}
.hint-danger{border-color:var(--danger);background:color-mix(in srgb,var(--danger) 9%,transparent)}
.table{overflow-x:auto;margin:1rem 0}table{border-collapse:collapse;width:100%}
th,td{border:1px solid var(--border);padding:.45rem .7rem;text-align:left;vertical-align:top}th{background:var(--subtle)}
figure{margin:1rem 0;text-align:center}figure img{max-width:100%;height:auto;border-radius:6px}
figcaption{color:var(--muted);font-size:.9rem}.images-left figure{text-align:left}.images-right figure{text-align:right}
img.inline-image.line{height:1.2em;vertical-align:middle}
.inline-figure{display:block}.inline-figure .inline-figcaption{display:block;color:var(--muted);font-size:.9rem}
[data-theme=light] .only-dark,[data-theme=dark] .only-light{display:none}
details.expandable{border:1px solid var(--border);border-radius:8px;margin:1rem 0;padding:.5rem 1rem}
details.expandable>summary{cursor:pointer;font-weight:600}
.tabs{display:flex;flex-wrap:wrap;margin:1rem 0;border:1px solid var(--border);border-radius:8px}
.tabs>.tab-radio{position:absolute;opacity:0;pointer-events:none}
.tabs>.tab-label{order:1;padding:.5rem 1rem;cursor:pointer;color:var(--muted);border-bottom:2px solid transparent}
.tabs>.tab-panel{order:2;width:100%;display:none;padding:0 1rem;border-top:1px solid var(--border)}
.tabs>.tab-radio:checked+.tab-label{color:var(--fg);border-bottom-color:var(--primary)}
.tabs>.tab-radio:checked+.tab-label+.tab-panel{display:block}
.tabs>.tab-radio:focus-visible+.tab-label{outline:2px solid var(--primary)}
ul.tasks{list-style:none;padding-left:1.2rem}
.math{overflow-x:auto}.embed,.file,.content-ref{margin:1rem 0;padding:.75rem 1rem;border:1px solid var(--border);border-radius:8px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:.75rem;margin:1rem 0}.card{display:block;padding:.75rem 1rem;border:1px solid var(--border);border-radius:8px;overflow:hidden;color:inherit;text-decoration:none}a.card:hover{border-color:var(--primary)}.card-cover{display:block;width:calc(100% + 2rem);max-width:none;height:auto;aspect-ratio:16/9!important;object-fit:cover;margin:-.75rem -1rem .75rem;background:var(--subtle)}
.columns{display:flex;flex-wrap:wrap;gap:1.5rem;margin:1rem 0}.column{flex:1 1 14rem;min-width:0}.update{margin:1.5rem 0;padding-left:1rem;border-left:2px solid var(--border)}.update-date{color:var(--muted,inherit);font-size:.9em}
a.button{display:inline-block;padding:.35rem .9rem;border-radius:6px;border:1px solid var(--primary);text-decoration:none}a.button-primary{background:var(--primary);color:#fff}a.button-secondary{color:var(--primary)}
.color-green{color:#16a34a}.color-blue{color:#2563eb}.color-red{color:#dc2626}.color-orange{color:#ea580c}.color-yellow{color:#ca8a04}
.color-purple{color:#9333ea}.color-pink{color:#db2777}.color-violet{color:#7c3aed}.color-cyan{color:#0891b2}
.color-primary{color:var(--primary)}.color-info{color:var(--info)}.color-success{color:var(--success)}.color-warning{color:var(--warning)}.color-danger{color:var(--danger)}
.bg-green,.bg-blue,.bg-red,.bg-orange,.bg-yellow,.bg-purple,.bg-pink,.bg-violet,.bg-cyan,.bg-primary,.bg-info,.bg-success,.bg-warning,.bg-danger,.bg-tint{background:var(--tint);border-radius:3px}
aside.outline{position:sticky;top:7rem;align-self:start;padding:2rem 0;font-size:.85rem}
aside.outline h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:0 0 .5rem}
aside.outline ul{list-style:none;margin:0;padding:0}aside.outline li{padding:.15rem 0}aside.outline .level-2{padding-left:.8rem}aside.outline .level-3{padding-left:1.6rem}
aside.outline a{color:var(--muted)}
.pagination{display:flex;justify-content:space-between;gap:1rem;margin-top:3rem}
.pagination a{flex:1;border:1px solid var(--border);border-radius:8px;padding:.75rem 1rem}.pagination .next{text-align:right}
.pagination small{display:block;color:var(--muted)}
footer.site-footer{border-top:1px solid var(--border);margin-top:2rem;padding:2rem 1.5rem;color:var(--muted);font-size:.9rem}
footer.site-footer .groups{display:flex;gap:3rem;max-width:1400px;margin:0 auto 1rem;flex-wrap:wrap}
footer.site-footer h3{font-size:.9rem;color:var(--fg);margin:0 0 .5rem}footer.site-footer ul{list-style:none;margin:0;padding:0}
footer.site-footer .copyright{max-width:1400px;margin:0 auto}
.error-page{max-width:40rem;margin:6rem auto;padding:0 1.5rem;text-align:center}
.error-page h1{font-size:3rem;margin:0}.error-title{font-size:1.4rem;font-weight:600}
@media (max-width:1100px){.layout{grid-template-columns:240px minmax(0,1fr)}aside.outline{display:none}.outline-mobile{display:block}}
@media (max-width:760px){
.layout{grid-template-columns:minmax(0,1fr);padding:0 1rem}
.header-bar{gap:.6rem;padding:.6rem 1rem}
.header-links{display:none}
.site-search input{width:100%;max-width:none}
.site-search{flex:1 1 6rem}
.site-title{font-size:1rem;flex:0 1 auto}
nav.sections{padding:0 1rem}
main.content h1{font-size:1.7rem}
.page-actions{float:none;margin:.5rem 0}
.pagination{flex-direction:column}
html:not(.js) aside.sidebar{position:static;max-height:none;border-bottom:1px solid var(--border)}
.js .menu-toggle{display:inline-flex;align-items:center;justify-content:center}
.js aside.sidebar{position:fixed;top:0;bottom:0;left:0;z-index:50;align-self:stretch;height:100dvh;width:min(85vw,320px);max-height:none;padding:1rem;background:var(--bg);border-right:1px solid var(--border);transform:translateX(-100%);visibility:hidden;transition:transform .2s,visibility 0s .2s}
.js.drawer-open aside.sidebar{transform:none;visibility:visible;transition:transform .2s}
.js.drawer-open .drawer-backdrop{display:block;position:fixed;inset:0;width:100vw;height:100dvh;align-self:stretch;z-index:45;background:rgba(0,0,0,.45)}
.js.drawer-open body{overflow:hidden}
}
@media (max-width:420px){.site-title img+span{display:none}}
/* OpenAPI blocks (src/site/render-openapi.ts) */
.openapi-operation{margin:1.5rem 0;border:1px solid var(--border);border-radius:10px;padding:1rem 1.1rem;background:var(--bg);container-type:inline-size}
.oa-head{display:flex;flex-wrap:wrap;align-items:center;gap:.6rem}
.oa-method{font-weight:700;font-size:.8rem;letter-spacing:.03em;padding:.15rem .5rem;border-radius:5px;color:#fff;background:var(--muted)}
.oa-m-get{background:#16a34a}.oa-m-post{background:#2563eb}.oa-m-put{background:#d97706}.oa-m-patch{background:#9333ea}.oa-m-delete{background:#dc2626}.oa-m-webhook{background:#0891b2}
.oa-path{font-size:1rem;font-weight:600;overflow-wrap:anywhere;background:none}
.oa-server{margin-top:.35rem;color:var(--muted);font-size:.85rem;overflow-wrap:anywhere}
.oa-summary{margin:.9rem 0 .3rem;font-size:1.2rem}
.openapi-operation h4{margin:1.2rem 0 .4rem;font-size:.95rem;border-bottom:1px solid var(--border);padding-bottom:.25rem}
.oa-body{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1.2rem}
.oa-aside .tabs{margin-top:1rem}.oa-aside .tab-panel{padding:0 .6rem}.oa-aside .code{margin:.6rem 0}.oa-aside pre{font-size:.8rem}
.oa-props{list-style:none;margin:0;padding:0}
.oa-props .oa-props{padding-left:1rem;border-left:2px solid var(--border);margin:.3rem 0 .3rem .2rem}
.oa-prop{padding:.45rem 0;border-bottom:1px solid var(--border)}.oa-prop:last-child{border-bottom:0}
.oa-prop-head{cursor:default}.oa-nested>summary{cursor:pointer}
.oa-name{font-weight:600;background:none}
.oa-type{color:var(--muted);font-size:.85rem}
.oa-required{color:var(--danger);font-size:.8rem}
.oa-deprecated,.oa-flag{color:var(--warning);font-size:.8rem}
.oa-desc,.oa-enum,.oa-default{font-size:.9rem;color:var(--fg);margin:.15rem 0}.oa-desc p{margin:.15rem 0}
.oa-enum code,.oa-default code{font-size:.8rem}
.oa-alternatives{margin:.4rem 0;padding:.4rem .7rem;border:1px dashed var(--border);border-radius:8px}
.oa-alt-label{font-size:.8rem;font-weight:600;color:var(--muted)}.oa-alternatives ol{margin:.2rem 0;padding-left:1.2rem}
.oa-alt-title{font-weight:600}
.oa-truncated{font-size:.85rem;color:var(--muted)}
.oa-content-type{font-weight:400;color:var(--muted);font-size:.8rem}
.oa-response{border:1px solid var(--border);border-radius:8px;margin:.4rem 0;padding:.35rem .7rem}
.oa-response>summary{cursor:pointer}
.oa-status{font-weight:700;font-family:ui-monospace,monospace}.oa-s2{color:var(--success)}.oa-s3{color:var(--info)}.oa-s4{color:var(--warning)}.oa-s5{color:var(--danger)}
.oa-schema{margin:.3rem 0}
.openapi-schemas .oa-model{border:1px solid var(--border);border-radius:8px;margin:.5rem 0;padding:.45rem .8rem}
.openapi-schemas .oa-model>summary{cursor:pointer}
/* Examples beside the reference only when the block is wide enough for both. */
@container (max-width:860px){.oa-body{grid-template-columns:minmax(0,1fr)}}
@media (max-width:760px){.openapi-operation{padding:.75rem .7rem}.oa-props .oa-props{padding-left:.6rem}}
`;

type ByTheme = { light?: unknown; dark?: unknown } | undefined | null;

/**
 * CSS variables from a site's `styling`: primaryColor, tint.color and the four hint
 * colors, each `{ light, dark }` (a plain string applies to both). Only hex colors pass.
 */
export function themeOverrides(styling: Record<string, unknown> | undefined): string {
  if (!styling || typeof styling !== 'object') return '';
  const light: string[] = [];
  const dark: string[] = [];
  const add = (variable: string, value: unknown) => {
    const byTheme: ByTheme = typeof value === 'string' ? { light: value, dark: value } : (value as ByTheme);
    if (!byTheme || typeof byTheme !== 'object') return;
    const l = safeColor(byTheme.light);
    const d = safeColor(byTheme.dark) ?? l;
    if (l) light.push(`--${variable}:${l}`);
    if (d) dark.push(`--${variable}:${d}`);
  };
  add('primary', styling.primaryColor);
  const tint = styling.tint as { color?: unknown } | undefined;
  if (tint && typeof tint === 'object') add('tint', tint.color);
  add('info', styling.infoColor);
  add('success', styling.successColor);
  add('warning', styling.warningColor);
  add('danger', styling.dangerColor);
  if (light.length === 0 && dark.length === 0) return '';
  return `:root,[data-theme=light]{${light.join(';')}}[data-theme=dark]{${dark.join(';')}}`;
}
