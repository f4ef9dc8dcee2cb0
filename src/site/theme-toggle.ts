import { createHash } from 'node:crypto';

/*
 * The only scripts a published page carries: both inline and constant, so the page's
 * Content-Security-Policy allows exactly them by hash. Pages work without them: the theme
 * is then the site's default, the sidebar is shown in the page instead of a drawer, the
 * search box opens the full results page, and copy buttons are hidden.
 */

/** Storage key of the visitor's choice; one for every site of the server. */
export const THEME_STORAGE_KEY = 'quire-theme';

/**
 * In <head>, before anything paints (no flash of the wrong theme): marks the page as
 * scripted, then applies the visitor's stored theme (when the site has the toggle), else
 * the system preference (when the site follows it, `data-theme-mode="system"`), else the
 * site's default written by the server.
 */
export const THEME_HEAD_SCRIPT =
  `(function(){var d=document.documentElement;d.classList.add('js');var t=null;` +
  `try{if(d.hasAttribute('data-toggle'))t=localStorage.getItem('${THEME_STORAGE_KEY}');}catch(e){}` +
  `if(t!=='light'&&t!=='dark'&&d.getAttribute('data-theme-mode')==='system'&&window.matchMedia)` +
  `t=matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';` +
  `if(t==='light'||t==='dark')d.setAttribute('data-theme',t);})();`;

/**
 * At the end of <body>: the theme toggle (remembered), following system changes, copy
 * buttons (code and page markdown), the phone drawer, and the instant search dropdown
 * (results as you type from `<search URL>?q=…&format=json`, arrows move, Enter opens).
 */
export const SITE_SCRIPT = `(function(){
var d=document,root=d.documentElement,K='${THEME_STORAGE_KEY}';
function q(s,e){return (e||d).querySelector(s)}
function qa(s,e){return Array.prototype.slice.call((e||d).querySelectorAll(s))}
function stored(){try{return localStorage.getItem(K)}catch(e){return null}}
var tb=q('#theme-toggle');
function pressed(){if(tb)tb.setAttribute('aria-pressed',String(root.getAttribute('data-theme')==='dark'))}
pressed();
if(tb)tb.addEventListener('click',function(){var t=root.getAttribute('data-theme')==='dark'?'light':'dark';root.setAttribute('data-theme',t);pressed();try{localStorage.setItem(K,t)}catch(e){}});
if(root.getAttribute('data-theme-mode')==='system'&&window.matchMedia){var mq=matchMedia('(prefers-color-scheme: dark)');if(mq.addEventListener)mq.addEventListener('change',function(){var s=root.hasAttribute('data-toggle')?stored():null;if(s!=='light'&&s!=='dark'){root.setAttribute('data-theme',mq.matches?'dark':'light');pressed()}})}
function copy(text,b){var o=b.textContent;var done=function(){b.textContent='Copied';setTimeout(function(){b.textContent=o},1500)};if(navigator.clipboard&&navigator.clipboard.writeText)navigator.clipboard.writeText(text).then(done,function(){})}
qa('.copy-code').forEach(function(b){b.addEventListener('click',function(){copy(b.closest('.code').querySelector('pre').textContent,b)})});
var cm=q('#copy-markdown');if(cm)cm.addEventListener('click',function(){fetch(cm.getAttribute('data-src')).then(function(r){return r.text()}).then(function(t){copy(t,cm)})});
var mb=q('#menu-toggle'),dr=q('#site-drawer');
function drawer(open){root.classList.toggle('drawer-open',open);mb.setAttribute('aria-expanded',String(open));if(open){var a=q('[aria-current=page]',dr)||q('a',dr);if(a)a.focus()}}
if(mb&&dr){mb.addEventListener('click',function(){drawer(!root.classList.contains('drawer-open'))});
dr.addEventListener('click',function(e){if(e.target.closest('a'))drawer(false)});
var bd=q('.drawer-backdrop');if(bd)bd.addEventListener('click',function(){drawer(false)});
d.addEventListener('keydown',function(e){if(e.key==='Escape'&&root.classList.contains('drawer-open')){drawer(false);mb.focus()}})}
var f=q('form.site-search'),inp=f&&q('input',f),box=q('#search-dropdown'),opts=[],act=-1,timer=0,seq=0;
function show(on){box.hidden=!on;inp.setAttribute('aria-expanded',String(on))}
function mark(i){opts.forEach(function(o,n){o.classList.toggle('active',n===i);o.setAttribute('aria-selected',String(n===i))});act=i;if(i>=0){inp.setAttribute('aria-activedescendant',opts[i].id);opts[i].scrollIntoView({block:'nearest'})}else inp.removeAttribute('aria-activedescendant')}
function run(){var v=inp.value.trim(),n=++seq;if(!v){show(false);return}
fetch(f.getAttribute('action')+'?format=json&q='+encodeURIComponent(v),{headers:{accept:'application/json'}}).then(function(r){return r.json()}).then(function(j){if(n!==seq)return;box.innerHTML=j.html;opts=qa('[role=option]',box);act=-1;show(true)}).catch(function(){})}
if(f&&inp&&box){inp.addEventListener('input',function(){clearTimeout(timer);timer=setTimeout(run,120)});
inp.addEventListener('keydown',function(e){if(box.hidden)return;if(e.key==='ArrowDown'){e.preventDefault();mark(Math.min(act+1,opts.length-1))}else if(e.key==='ArrowUp'){e.preventDefault();mark(Math.max(act-1,-1))}else if(e.key==='Enter'&&act>=0){e.preventDefault();location.href=opts[act].getAttribute('href')}else if(e.key==='Escape'){show(false)}});
d.addEventListener('click',function(e){if(!f.contains(e.target))show(false)})}
})();`;

const hash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** CSP sources allowing the two scripts above and nothing else. */
export const THEME_SCRIPT_HASHES = `${hash(THEME_HEAD_SCRIPT)} ${hash(SITE_SCRIPT)}`;
