import { escapeHtml as e } from '../../site/html.ts';
import { diffTable, layout, when, type Chrome } from './app-area.presenter.ts';
import type { Config } from '../../config.ts';
import { documentToMarkdown, type Document } from '../../content/markdown/index.ts';
import { renderDocument } from '../../site/render-document.ts';
import { presentChangeRequest, presentChangeRequestsPage, presentRequestedReviewersPage, presentReviewsPage } from '../change-requests/change-requests.presenter.ts';
import { presentCommentsPage, presentRepliesPage } from '../comments/comments.presenter.ts';
import type {
  ChangeRequestListData,
  ChangeRequestListView,
  ChangeRequestPageData,
  ChangeRequestPageView,
  CommentsData,
  CommentView,
  CrPageData,
  CrPageView,
  MoveDirection,
  TreePage,
} from './app-area.views.ts';
import { scriptTags, type PageScript } from './app-area.editor.presenter.ts';

/*
 * HTML of change requests in the app: the list, a change request with its forms, and one
 * of its pages block by block. Every action is a plain form POST carrying the session's
 * CSRF token (no script needed); controls a member may not use are not shown, and the
 * server refuses them anyway.
 */






type Wire = Pick<Config, 'publicUrl'>;

/*
 * Views from the services' data: the change requests, reviews and comments as the API
 * presents them (their presenters), reduced to what the app shows.
 */

export function changeRequestListViewOf(config: Wire, data: ChangeRequestListData): ChangeRequestListView {
  const { changeRequests, ...rest } = data;
  return {
    ...rest,
    items: presentChangeRequestsPage(config, changeRequests).items.map((cr) => ({
      number: cr.number,
      subject: cr.subject ?? '',
      status: cr.status,
      author: cr.createdBy?.displayName ?? '',
      updatedAt: cr.updatedAt ?? cr.createdAt,
    })),
  };
}

function commentViewsOf(config: Wire, data: CommentsData): CommentView[] {
  return presentCommentsPage(config, data.comments).items.map((c) => {
    const answered = data.replies.get(c.id);
    return {
      id: c.id,
      author: c.postedBy?.displayName ?? '',
      at: c.postedAt ?? '',
      text: c.body?.markdown ?? '',
      status: c.status ?? 'open',
      ...(c.target?.page ? { pageId: c.target.page.id } : {}),
      ...(c.target?.node ? { nodeId: c.target.node.id } : {}),
      reactions: (c.reactions ?? []).map((r) => ({ emoji: r.emoji, count: r.count, mine: r.users.some((u) => u.user.id === data.viewer) })),
      replies: answered
        ? presentRepliesPage(config, answered).items.map((r) => ({ author: r.postedBy?.displayName ?? '', at: r.postedAt ?? '', text: r.body?.markdown ?? '' }))
        : [],
    };
  });
}

export function changeRequestPageViewOf(config: Wire, data: ChangeRequestPageData): ChangeRequestPageView {
  const { changeRequest: result, reviews, requested, comments, ...rest } = data;
  const cr = presentChangeRequest(config, result.changeRequest, result.users);
  const description = cr.description as Document | undefined;
  return {
    ...rest,
    changeRequest: {
      number: cr.number,
      subject: cr.subject ?? '',
      status: cr.status,
      outdated: cr.outdated === true,
      createdBy: cr.createdBy?.displayName ?? '',
      createdAt: cr.createdAt,
      ...(cr.mergedAt ? { merged: { by: cr.mergedBy?.displayName ?? '', at: cr.mergedAt } } : {}),
      descriptionMarkdown: description ? documentToMarkdown(description) : '',
      descriptionDocument: description ?? null,
      descriptionHtml: description?.nodes?.length ? renderDocument(description as never).html : '',
    },
    reviews: presentReviewsPage(config, reviews).items.map((r) => ({ status: r.status, outdated: r.outdated === true, reviewer: r.reviewer?.displayName ?? '', at: r.createdAt ?? '' })),
    requestedReviewers: presentRequestedReviewersPage(config, requested).items.map((r) => r.user?.displayName ?? ''),
    comments: commentViewsOf(config, comments),
  };
}

export function crPageViewOf(config: Wire, data: CrPageData): CrPageView {
  return { ...data, comments: commentViewsOf(config, data.comments).filter((c) => c.pageId === data.page.id) };
}

/** Reactions offered on every comment (any single emoji is accepted by the API). */
const REACTIONS = ['👍', '❤️', '🎉', '👀'];

const CR_CSS = `<style>
.cr-head{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.badge.open{color:color-mix(in srgb,var(--success) 70%,var(--fg))}
.comment a,.cr-description a{text-decoration:underline}
h2[id],.block,.comment,.cr-box{scroll-margin-top:4.5rem}
.cr-error{border:1px solid var(--danger);border-radius:8px;padding:.75rem 1rem;margin:1rem 0;overflow-wrap:anywhere}
.cr-warn{border:1px solid var(--warning);border-radius:8px;padding:.75rem 1rem;margin:1rem 0}
.cr-box{border:1px solid var(--border);border-radius:8px;padding:.75rem 1rem;margin:1rem 0}
.cr-form{display:flex;flex-direction:column;gap:.5rem;margin:.5rem 0;max-width:40rem}
.cr-form label{display:flex;flex-direction:column;gap:.25rem;font-weight:600;font-size:.9rem}
.cr-form input[type=text],.cr-form input[type=number],.cr-form textarea,.cr-form select,.cr-inline select,.cr-inline input[type=text]{padding:.45rem .6rem;border:1px solid var(--border);border-radius:6px;background:var(--bg);color:var(--fg);font:inherit;font-weight:400;max-width:100%;box-sizing:border-box}
.cr-form textarea{min-height:6rem;resize:vertical}
.cr-form>button,.cr-form>.app-button{align-self:flex-start}
.change>h3 .comment-link{font-weight:400;font-size:.85rem;margin-left:.35rem}
.cr-inline{display:flex;flex-wrap:wrap;gap:.4rem;align-items:center;margin:.4rem 0}
.cr-inline form{margin:0;display:inline}
.app-button.small{padding:.2rem .55rem;font-size:.85rem}
.app-button.danger{border-color:var(--danger);color:var(--danger);background:transparent}
.app-button.on{background:var(--tint);border-color:var(--primary);color:var(--fg)}
.cr-tabs{display:flex;flex-wrap:wrap;gap:.35rem;list-style:none;padding:0;margin:.75rem 0}
.cr-tabs a{display:inline-block;padding:.25rem .7rem;border:1px solid var(--border);border-radius:999px}
.cr-tabs a[aria-current]{background:var(--primary);color:var(--primary-fg);border-color:var(--primary)}
.cr-tree,.cr-tree ul{list-style:none;padding-left:0;margin:0}.cr-tree ul{padding-left:1.25rem;border-left:1px solid var(--border);margin-left:.4rem}
.cr-tree li{margin:.35rem 0}
.cr-tree .row{display:flex;gap:.3rem;align-items:center}
.cr-tree .row .name{flex:1 1 auto;min-width:0;overflow-wrap:anywhere}
.cr-tree .row>form{flex:none}
.cr-tree details{margin:.25rem 0 .25rem 0}
.cr-tree summary,.comment summary{cursor:pointer;color:var(--primary)}
.comment .reactions{display:flex;flex-wrap:wrap;gap:.3rem;margin:.4rem 0}
.comment .reply{border-left:2px solid var(--border);margin:.5rem 0 .5rem .5rem;padding-left:.75rem}
.block{position:relative;border-radius:6px;padding:.1rem .5rem;margin:0 -.5rem}
.block:target,.block.commenting{background:var(--tint)}
.block-tools{display:flex;justify-content:flex-end;gap:.5rem;font-size:.85rem}
.block .comment{margin-left:.5rem}
.cr-description{border:1px solid var(--border);border-radius:8px;padding:.25rem 1rem;margin:.75rem 0}
@media (max-width:40rem){.app-main{padding:1rem .85rem 3rem}.app-main h1{font-size:1.4rem}.diff{font-size:.78rem}.diff td.n{display:none}}
</style>`;

const csrfField = (chrome: Chrome) => `<input type="hidden" name="csrf" value="${e(chrome.csrf ?? '')}">`;

const crBase = (chrome: Chrome, spaceId: string, number: number) => `${chrome.appBase}/s/${e(spaceId)}/change-requests/${number}`;

function errorBox(error: string | undefined): string {
  return error ? `<div class="cr-error" role="alert"><strong>Not done:</strong> ${e(error)}</div>` : '';
}

export function changeRequestListPage(chrome: Chrome, view: ChangeRequestListView): string {
  const base = `${chrome.appBase}/s/${e(view.space.id)}/change-requests`;
  // Two independent filters: each row keeps the other's choice.
  const href = (status: string, who: string | undefined) => `${base}?status=${status}${who ? `&amp;who=${who}` : ''}`;
  const statusTab = (label: string, status: string) =>
    `<li><a href="${href(status, view.filter.who)}"${view.filter.status === status ? ' aria-current="page"' : ''}>${e(label)}</a></li>`;
  const whoTab = (label: string, who: 'mine' | 'review' | undefined) =>
    `<li><a href="${href(view.filter.status, who)}"${view.filter.who === who ? ' aria-current="page"' : ''}>${e(label)}</a></li>`;
  const tabs =
    `<ul class="cr-tabs" aria-label="Status">${statusTab('Open', 'open')}${statusTab('Draft', 'draft')}${statusTab('Merged', 'merged')}${statusTab('Archived', 'archived')}</ul>` +
    `<ul class="cr-tabs" aria-label="Whose">${whoTab('Everyone’s', undefined)}${whoTab('Opened by me', 'mine')}${whoTab('Review requested of me', 'review')}</ul>`;
  const create = view.mayCreate
    ? `<form class="app-form" method="post" action="${base}">${csrfField(chrome)}<input type="text" name="subject" maxlength="100" required aria-label="Subject of the new change request" placeholder="Subject"><button class="app-button" type="submit">New change request</button></form>`
    : '';
  const list = view.items.length
    ? `<table class="app-table"><thead><tr><th>#</th><th>Subject</th><th>Status</th><th>Opened by</th></tr></thead><tbody>${view.items
        .map(
          (cr) =>
            `<tr data-number="${cr.number}"><td>${cr.number}</td><td><a href="${base}/${cr.number}">${e(cr.subject || 'Untitled change request')}</a></td>` +
            `<td><span class="badge ${e(cr.status)}">${e(cr.status)}</span></td><td>${e(cr.author)}</td></tr>`,
        )
        .join('')}</tbody></table>`
    : '<p class="muted">No change request here.</p>';
  return layout(
    chrome,
    `${CR_CSS}<main class="app-main"><p><a href="${chrome.appBase}/s/${e(view.space.id)}">← ${e(view.space.title)}</a></p><h1>Change requests</h1>${create}${tabs}${list}</main>`,
  );
}

function treeEditor(chrome: Chrome, view: ChangeRequestPageView, pages: TreePage[]): string {
  const base = crBase(chrome, view.space.id, view.changeRequest.number);
  const csrf = csrfField(chrome);
  const items = pages
    .filter((p) => (p.kind ?? p.type) !== 'link')
    .map((p, index, siblings) => {
      const isGroup = (p.kind ?? p.type) === 'group';
      const { emoji, icon } = p as { emoji?: string; icon?: string };
      const name = `${emoji ? `${e(emoji)} ` : ''}${isGroup ? `<strong>${e(p.title)}</strong>` : `<a href="${base}/pages/${e(p.id)}">${e(p.title)}</a>`}`;
      const move = (direction: MoveDirection, label: string, sign: string, enabled: boolean) =>
        enabled
          ? `<form method="post" action="${base}/pages/${e(p.id)}/move">${csrf}<input type="hidden" name="direction" value="${direction}"><button class="app-button secondary small" type="submit" aria-label="${e(`${label}: ${p.title}`)}" title="${label}">${sign}</button></form>`
          : '';
      const controls = view.can.edit
        ? move('up', 'Move up', '↑', index > 0) +
          move('down', 'Move down', '↓', index < siblings.length - 1) +
          move('indent', 'Indent', '→', index > 0) +
          move('outdent', 'Outdent', '←', pages !== view.pages) +
          `<form method="post" action="${base}/pages/${e(p.id)}/delete">${csrf}<button class="app-button danger small" type="submit" aria-label="${e(`Delete: ${p.title}`)}">Delete</button></form>`
        : '';
      const edit = view.can.edit
        ? `<details><summary>Edit ${e(p.title)}</summary><form class="cr-form" method="post" action="${base}/pages/${e(p.id)}">${csrf}` +
          `<label>Title<input type="text" name="title" required maxlength="255" value="${e(p.title)}"></label>` +
          `<label>Emoji<input type="text" name="emoji" maxlength="50" value="${e(emoji ?? '')}"></label>` +
          `<label>Icon (a Font Awesome name, as GitBook's <code>icon</code>)<input type="text" name="icon" maxlength="100" value="${e(icon ?? '')}"></label>` +
          (isGroup ? '' : `<label>Description<input type="text" name="description" maxlength="1000" value="${e((p as { description?: string }).description ?? '')}"></label>`) +
          `<button class="app-button" type="submit">Save page</button></form></details>`
        : '';
      const children = p.pages?.length ? treeEditor(chrome, view, p.pages) : '';
      const iconBadge = icon ? ` <span class="badge page-icon" title="Icon">${e(icon)}</span>` : '';
      return `<li data-tree-page="${e(p.id)}" data-tree-kind="${isGroup ? 'group' : 'document'}"><div class="row"><span class="name">${name}${iconBadge}</span>${controls}</div>${edit}${children}</li>`;
    });
  // The root carries where a drop posts to (change-request.ts); without script the buttons move.
  const root = pages === view.pages ? ` class="cr-tree"${view.can.edit ? ` data-tree-editable data-pages-url="${base}/pages/"` : ''}` : '';
  return `<ul${root}>${items.join('')}</ul>`;
}

function flatPages(pages: TreePage[], depth = 0): { id: string; title: string; depth: number }[] {
  return pages
    .filter((p) => (p.kind ?? p.type) !== 'link')
    .flatMap((p) => [{ id: p.id, title: p.title, depth }, ...flatPages(p.pages ?? [], depth + 1)]);
}

function commentHtml(chrome: Chrome, spaceId: string, number: number, c: CommentView, may: boolean, back: string, pageLink?: string): string {
  const base = crBase(chrome, spaceId, number);
  const csrf = csrfField(chrome) + `<input type="hidden" name="back" value="${e(back)}">`;
  const reactions = may
    ? [...new Set([...c.reactions.map((r) => r.emoji), ...REACTIONS])]
        .map((emoji) => {
          const r = c.reactions.find((x) => x.emoji === emoji);
          const mine = r?.mine === true;
          return `<form method="post" action="${base}/comments/${e(c.id)}">${csrf}<input type="hidden" name="${mine ? 'unreact' : 'react'}" value="${e(emoji)}"><button class="app-button secondary small${mine ? ' on' : ''}" type="submit" aria-pressed="${mine}" aria-label="${e(`${mine ? 'Take back' : 'React with'} ${emoji}`)}">${e(emoji)}${r ? ` ${r.count}` : ''}</button></form>`;
        })
        .join('')
    : c.reactions.map((r) => `<span class="badge">${e(r.emoji)} ${r.count}</span>`).join('');
  const resolve = may
    ? `<form method="post" action="${base}/comments/${e(c.id)}">${csrf}<input type="hidden" name="resolved" value="${c.status === 'resolved' ? 'false' : 'true'}"><button class="app-button secondary small" type="submit">${c.status === 'resolved' ? 'Reopen' : 'Resolve'}</button></form>`
    : '';
  const replies = c.replies.map((r) => `<div class="reply"><p><strong>${e(r.author)}</strong> <span class="muted">${e(when(r.at))}</span></p><div class="text">${e(r.text)}</div></div>`).join('');
  const replyForm = may
    ? `<details><summary>Reply</summary><form class="cr-form" method="post" action="${base}/comments/${e(c.id)}/replies">${csrf}<label>Reply<textarea name="text" required maxlength="50000"></textarea></label><button class="app-button" type="submit">Reply</button></form></details>`
    : '';
  const on = pageLink ? ` · <a href="${e(pageLink)}">on a block</a>` : '';
  return (
    `<div class="comment" id="comment-${e(c.id)}" data-comment="${e(c.id)}"${c.nodeId ? ` data-node="${e(c.nodeId)}"` : ''}><p><strong>${e(c.author)}</strong> <span class="muted">${e(when(c.at))}${on}${c.status === 'resolved' ? ' · resolved' : ''}</span></p>` +
    `<div class="text">${e(c.text)}</div><div class="reactions">${reactions}${resolve}</div>${replies}${replyForm}</div>`
  );
}

/**
 * A change request with its forms. `script` is the page's bundle (change-request.ts: the tree's
 * drag and drop, the rich-text description), given to members who may change something; the
 * forms below work the same without it.
 */
export function changeRequestFullPage(chrome: Chrome, view: ChangeRequestPageView, error?: string, script?: PageScript): string {
  const cr = view.changeRequest;
  const base = crBase(chrome, view.space.id, cr.number);
  const csrf = csrfField(chrome);
  const back = `${base}`;

  const description = cr.descriptionHtml ? `<div class="cr-description">${cr.descriptionHtml}</div>` : '<p class="muted">No description.</p>';
  const details = view.can.update
    ? `<details><summary>Edit subject and description</summary><form class="cr-form" method="post" action="${base}/details" data-description-form>${csrf}` +
      `<label>Subject<input type="text" name="subject" maxlength="100" value="${e(cr.subject)}"></label>` +
      // The script (change-request.ts) puts a rich-text editor in place of the markdown, from this document.
      `<label data-description-markdown>Description (markdown)<textarea name="description" maxlength="100000" rows="8" data-document="${e(JSON.stringify(cr.descriptionDocument))}">${e(cr.descriptionMarkdown)}</textarea></label>` +
      `<button class="app-button" type="submit">Save</button></form></details>`
    : '';

  const statusButtons = view.can.update
    ? (cr.status === 'open' || cr.status === 'draft'
        ? `<form method="post" action="${base}/status">${csrf}<input type="hidden" name="status" value="archived"><button class="app-button secondary" type="submit">Archive</button></form>` +
          (cr.status === 'open'
            ? `<form method="post" action="${base}/status">${csrf}<input type="hidden" name="status" value="draft"><button class="app-button secondary" type="submit">Mark as draft</button></form>`
            : `<form method="post" action="${base}/status">${csrf}<input type="hidden" name="status" value="open"><button class="app-button secondary" type="submit">Ready for review</button></form>`)
        : cr.status === 'archived'
          ? `<form method="post" action="${base}/status">${csrf}<input type="hidden" name="status" value="open"><button class="app-button secondary" type="submit">Reopen</button></form>`
          : '')
    : '';

  let mergeBox = '';
  if (cr.status === 'open' || cr.status === 'draft') {
    const outdated = cr.outdated
      ? `<div class="cr-warn" data-outdated><p><strong>Outdated:</strong> the space changed since this change request last took its content.</p>` +
        (view.conflicts.length
          ? `<p>These pages were changed on both sides and conflict:</p><ul data-conflicts>${view.conflicts
              .map((c) => `<li><strong>${e(c.title)}</strong>: ${e(c.detail)}</li>`)
              .join('')}</ul><p class="muted">Change these pages in the change request to match or replace the space's version, then update again.</p>`
          : '') +
        (view.can.edit ? `<form method="post" action="${base}/update">${csrf}<button class="app-button secondary" type="submit">Update from main</button></form>` : '') +
        `</div>`
      : '';
    const why = [...view.mergeBlockers, ...(view.conflicts.length ? ['Conflicts with the space: update from main first'] : [])];
    const mergeControl = view.can.merge
      ? why.length
        ? `<p><strong>Cannot merge yet:</strong></p><ul data-merge-blockers>${why.map((w) => `<li>${e(w)}</li>`).join('')}</ul>`
        : `<form method="post" action="${base}/merge">${csrf}<button class="app-button" type="submit">Merge</button></form>`
      : `<div data-merge-blockers><p class="muted">Merging needs the review role on the space.</p>${why.length ? `<p>Before it can merge:</p><ul>${why.map((w) => `<li>${e(w)}</li>`).join('')}</ul>` : ''}</div>`;
    mergeBox = `<section class="cr-box" id="merge" aria-label="Merge">${outdated}${mergeControl}</section>`;
  }

  const changes = view.changes.length
    ? view.changes
        .map((d) => {
          const title = d.previousTitle ? `${e(d.previousTitle)} → ${e(d.title)}` : e(d.title);
          const link = d.status === 'removed' ? title : `<a href="${base}/pages/${e(d.id)}">${title}</a>`;
          const comment = d.status === 'removed' ? '' : ` <a class="comment-link" href="${base}/pages/${e(d.id)}" aria-label="Comment on blocks of ${e(d.title)}">Comment on blocks</a>`;
          // diffTable's "only the title or place changed" does not fit a page that is new and empty.
          const body = d.status === 'added' && d.hunks?.length === 0 ? '<p class="muted" style="padding:.6rem .8rem;margin:0">New page, empty so far.</p>' : diffTable(d);
          return `<section class="change" data-page="${e(d.id)}"><h3>${link} <span class="badge">${e(d.status)}</span>${comment}</h3>${body}</section>`;
        })
        .join('')
    : '<p class="muted">This change request changes nothing yet.</p>';

  const parents = flatPages(view.pages);
  const addForm = view.can.edit
    ? `<details><summary>Add a page or group</summary><form class="cr-form" method="post" action="${base}/pages">${csrf}` +
      `<label>Title<input type="text" name="title" required maxlength="255"></label>` +
      `<label>Kind<select name="type"><option value="document">Page</option><option value="group">Group (a heading over pages)</option></select></label>` +
      `<label>Parent<select name="parent"><option value="">(top level)</option>${parents
        .map((p) => `<option value="${e(p.id)}">${'— '.repeat(p.depth)}${e(p.title)}</option>`)
        .join('')}</select></label>` +
      `<label>Position (0 = first; empty = last)<input type="number" name="at" min="0" max="10000"></label>` +
      `<button class="app-button" type="submit">Add</button></form></details>`
    : '';
  const tree = view.pages.length ? treeEditor(chrome, view, view.pages) : '<p class="muted">No page.</p>';

  const reviews = view.reviews.length
    ? `<ul>${view.reviews
        .map((r) => `<li>${e(r.reviewer)}: <strong>${e(r.status)}</strong>${r.outdated ? ' <span class="muted">(outdated)</span>' : ''} <span class="muted">${e(when(r.at))}</span></li>`)
        .join('')}</ul>`
    : '<p class="muted">No review yet.</p>';
  const requested = view.requestedReviewers.length ? `<p>Review requested of: ${view.requestedReviewers.map(e).join(', ')}</p>` : '';
  const reviewForm = view.can.review
    ? `<form class="cr-form" method="post" action="${base}/reviews">${csrf}<label>Review comment (optional)<textarea name="comment" maxlength="100000" rows="3"></textarea></label>` +
      `<div class="cr-inline"><button class="app-button" type="submit" name="status" value="approved">Approve</button><button class="app-button secondary" type="submit" name="status" value="changes-requested">Request changes</button></div></form>`
    : '';
  const askForm =
    view.can.requestReview && view.members.length
      ? `<form class="cr-inline" method="post" action="${base}/reviewers">${csrf}<label>Ask for a review <select name="users" required>${view.members
          .map((m) => `<option value="${e(m.id)}">${e(m.name)} (${e(m.role)})</option>`)
          .join('')}</select></label><button class="app-button secondary" type="submit">Request review</button></form>`
      : '';

  const general = view.comments.map((c) =>
    commentHtml(chrome, view.space.id, cr.number, c, view.can.comment, back, c.pageId ? `${base}/pages/${c.pageId}${c.nodeId ? `#block-${c.nodeId}` : ''}` : undefined),
  );
  const commentForm = view.can.comment
    ? `<form class="cr-form" method="post" action="${base}/comments">${csrf}<label>Comment<textarea name="text" required maxlength="50000" rows="3"></textarea></label><button class="app-button" type="submit">Comment</button></form>`
    : '';

  return layout(
    chrome,
    `${CR_CSS}<main class="app-main"><p><a href="${chrome.appBase}/s/${e(view.space.id)}">← ${e(view.space.title)}</a> · <a href="${chrome.appBase}/s/${e(view.space.id)}/change-requests">Change requests</a></p>
${errorBox(error)}<h1>#${cr.number} ${e(cr.subject || 'Untitled change request')} <span class="badge ${e(cr.status)}">${e(cr.status)}</span></h1>
<p class="muted">Opened by ${e(cr.createdBy)} ${e(when(cr.createdAt))}${cr.merged ? ` · merged by ${e(cr.merged.by)} ${e(when(cr.merged.at))}` : ''}</p>${description}${details}<div class="cr-inline">${statusButtons}</div>
${mergeBox}<h2>Changes</h2>${changes}<h2 id="pages">Pages</h2>${addForm}${tree}<h2>Reviews</h2>${requested}${reviews}${reviewForm}${askForm}<h2>Comments</h2>${general.join('') || '<p class="muted">No comment.</p>'}${commentForm}</main>` +
      (script ? `<link rel="stylesheet" href="${e(script.style)}">${scriptTags(script)}` : ''),
  );
}

/** One page of the change request, block by block; each block has a "Comment" link to a form anchored on its node. */
export function changeRequestPageOfPage(chrome: Chrome, view: CrPageView, commentOn: string | undefined, error?: string): string {
  const base = crBase(chrome, view.space.id, view.changeRequest.number);
  const pageUrl = `${base}/pages/${e(view.page.id)}`;
  const csrf = csrfField(chrome);
  const pageComments = view.comments.filter((c) => !c.nodeId);
  const blocks = view.blocks
    .map((b, index) => {
      const onBlock = view.comments.filter((c) => c.nodeId && c.nodeId === b.nodeId);
      const commenting = commentOn !== undefined && commentOn === b.nodeId;
      const link = view.can.comment && b.nodeId ? `<a href="${pageUrl}?comment=${e(encodeURIComponent(b.nodeId))}#block-${e(b.nodeId)}" aria-label="Comment on block ${index + 1}">Comment</a>` : '';
      const form = commenting
        ? `<form class="cr-form" id="comment-form" method="post" action="${base}/comments">${csrf}<input type="hidden" name="page" value="${e(view.page.id)}"><input type="hidden" name="node" value="${e(b.nodeId)}"><input type="hidden" name="back" value="${pageUrl}">` +
          `<label>Comment on this block<textarea name="text" required maxlength="50000" rows="3" autofocus></textarea></label><div class="cr-inline"><button class="app-button" type="submit">Comment</button><a href="${pageUrl}#block-${e(b.nodeId)}">Cancel</a></div></form>`
        : '';
      const comments = onBlock.map((c) => commentHtml(chrome, view.space.id, view.changeRequest.number, c, view.can.comment, pageUrl)).join('');
      return `<div class="block${commenting ? ' commenting' : ''}" id="block-${e(b.nodeId)}" data-node="${e(b.nodeId)}">${b.html}<div class="block-tools">${onBlock.length ? `<span class="muted">${onBlock.length} comment${onBlock.length === 1 ? '' : 's'}</span>` : ''}${link}</div>${comments}${form}</div>`;
    })
    .join('');
  const pageForm = view.can.comment
    ? `<form class="cr-form" method="post" action="${base}/comments">${csrf}<input type="hidden" name="page" value="${e(view.page.id)}"><input type="hidden" name="back" value="${pageUrl}"><label>Comment on the page<textarea name="text" required maxlength="50000" rows="3"></textarea></label><button class="app-button" type="submit">Comment</button></form>`
    : '';
  return layout(
    chrome,
    `${CR_CSS}<main class="app-main"><p><a href="${base}">← #${view.changeRequest.number} ${e(view.changeRequest.subject || 'Untitled change request')}</a></p>${errorBox(error)}
<h1>${view.page.emoji ? `${e(view.page.emoji)} ` : ''}${e(view.page.title)}</h1>${view.page.description ? `<p class="page-description">${e(view.page.description)}</p>` : ''}
<div class="content cr-blocks">${blocks || '<p class="muted">This page is empty.</p>'}</div><h2>Comments on the page</h2>${pageComments.map((c) => commentHtml(chrome, view.space.id, view.changeRequest.number, c, view.can.comment, pageUrl)).join('') || '<p class="muted">No comment.</p>'}${pageForm}</main>`,
  );
}
