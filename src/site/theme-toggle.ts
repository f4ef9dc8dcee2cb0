import { createHash } from 'node:crypto';

/*
 * The only scripts a published page carries: both inline and constant, so the page's
 * Content-Security-Policy allows exactly them by hash. Pages work without them (the theme
 * is then the site's default).
 */

/** Storage key of the visitor's choice; one for every site of the server. */
export const THEME_STORAGE_KEY = 'quire-theme';

/** In <head>, before anything paints: applies the visitor's stored theme. */
export const THEME_HEAD_SCRIPT =
  `(function(){try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');` +
  `if(t==='light'||t==='dark')document.documentElement.setAttribute('data-theme',t);}catch(e){}})();`;

/** At the end of <body>: the toggle button switches and remembers the theme. */
export const THEME_TOGGLE_SCRIPT =
  `(function(){var b=document.getElementById('theme-toggle');if(!b)return;` +
  `b.addEventListener('click',function(){var d=document.documentElement;` +
  `var t=d.getAttribute('data-theme')==='dark'?'light':'dark';d.setAttribute('data-theme',t);` +
  `b.setAttribute('aria-pressed',String(t==='dark'));` +
  `try{localStorage.setItem('${THEME_STORAGE_KEY}',t);}catch(e){}});})();`;

const hash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** CSP sources allowing the two scripts above and nothing else. */
export const THEME_SCRIPT_HASHES = `${hash(THEME_HEAD_SCRIPT)} ${hash(THEME_TOGGLE_SCRIPT)}`;
