import { afterAll, describe, expect, it } from 'vitest';
import { createMarkdownReader, MarkdownTooCostly, ReaderBusy } from './page-reader.ts';
import { readPageMarkdown } from './page.ts';
import { markdownToDocument } from './parse.ts';

describe('page reader (markdown read on a pool thread, under a budget)', () => {
  // No inline allowance: every reading goes to the thread.
  const reader = createMarkdownReader({ threads: 1, budgetMs: 3000, inlineBytes: 0 });
  afterAll(() => reader.close());

  const PAGE = '# Title\n\nSome *text* with a [link](other.md).\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';

  it('a page read on a thread is the page read here', async () => {
    expect(await reader.begin().page(PAGE, 'page')).toEqual(readPageMarkdown(PAGE));
  });

  it('other markdown is read in canonical form, as markdownToDocument reads it', async () => {
    expect(await reader.begin().document(PAGE, 'description')).toEqual(markdownToDocument(PAGE));
  });

  it('a reading reads the same within its inline allowance and past it (on the pool)', async () => {
    const inline = createMarkdownReader({ threads: 1, budgetMs: 3000, inlineBytes: 1024 });
    const reading = inline.begin();
    expect(await reading.page(PAGE, 'a')).toEqual(readPageMarkdown(PAGE));
    expect(await reading.page('x'.repeat(2000), 'b')).toEqual(readPageMarkdown('x'.repeat(2000)));
    await inline.close();
  });

  it('with every thread busy and the queue full, a reading is refused at once (busy), and the others finish', async () => {
    const small = createMarkdownReader({ threads: 1, budgetMs: 1500, inlineBytes: 0, queue: 1 });
    const hostile = '{% hint style="info" %}\n'.repeat(40_000);
    const settled = await Promise.allSettled([0, 1, 2].map((i) => small.begin().page(hostile, `page ${i}`)));
    expect(settled.map((r) => (r.status === 'rejected' ? (r.reason as Error).constructor.name : 'read'))).toEqual(['MarkdownTooCostly', 'MarkdownTooCostly', 'ReaderBusy']);
    expect((settled[2] as PromiseRejectedResult).reason).toBeInstanceOf(ReaderBusy);
    // Free again: the next reading is read.
    expect(await small.begin().page(PAGE, 'page')).toEqual(readPageMarkdown(PAGE));
    await small.close();
  });

  it('past its budget a reading fails naming the input; one reading shares one budget', async () => {
    const hostile = '{% hint style="info" %}\n'.repeat(40_000);
    const reading = reader.begin();
    const error = await reading.page(hostile, 'body/changes/3/document/markdown').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MarkdownTooCostly);
    expect((error as Error).message).toMatch(/^body\/changes\/3\/document\/markdown: reading this markdown takes more than the 3 s/);
    // The budget is spent: the same reading refuses the next page at once.
    await expect(reading.page(PAGE, 'next')).rejects.toBeInstanceOf(MarkdownTooCostly);
    // A new reading has its own.
    expect(await reader.begin().page(PAGE, 'page')).toEqual(readPageMarkdown(PAGE));
  });

  it('one tenant has at most one reading a thread on or waiting for them: its next is refused at once, another tenant\'s waits and is read', async () => {
    const shared = createMarkdownReader({ threads: 1, budgetMs: 1500, inlineBytes: 0 });
    const hostile = '{% hint style="info" %}\n'.repeat(40_000);
    const first = shared.begin({ tenant: 'org-a' }).page(hostile, 'a 1');
    const second = shared.begin({ tenant: 'org-a' }).page(PAGE, 'a 2');
    const other = shared.begin({ tenant: 'org-b' }).page(PAGE, 'b 1');
    const [a1, a2, b1] = await Promise.allSettled([first, second, other]);
    expect(a1.status === 'rejected' && a1.reason).toBeInstanceOf(MarkdownTooCostly);
    expect(a2.status === 'rejected' && a2.reason).toBeInstanceOf(ReaderBusy);
    expect((a2 as PromiseRejectedResult).reason.message).toMatch(/organization/);
    expect(b1).toEqual({ status: 'fulfilled', value: readPageMarkdown(PAGE) });
    // Its readings done, the tenant reads again.
    expect(await shared.begin({ tenant: 'org-a' }).page(PAGE, 'a 3')).toEqual(readPageMarkdown(PAGE));
    await shared.close();
  });

  it('a job\'s reading (inline: false) waits for room rather than being refused: an import has no client to retry it', async () => {
    const shared = createMarkdownReader({ threads: 1, budgetMs: 1500, inlineBytes: 0, queue: 0 });
    const hostile = '{% hint style="info" %}\n'.repeat(40_000);
    const request = shared.begin({ tenant: 'org-a' }).page(hostile, 'request');
    const job = shared.begin({ tenant: 'org-a', inline: false }).page(PAGE, 'job');
    const refused = shared.begin({ tenant: 'org-b' }).page(PAGE, 'full');
    await expect(refused).rejects.toBeInstanceOf(ReaderBusy);
    await expect(request).rejects.toBeInstanceOf(MarkdownTooCostly);
    expect(await job).toEqual(readPageMarkdown(PAGE));
    await shared.close();
  });
});
