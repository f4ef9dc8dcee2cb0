import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { CHROMIUM, CHROMIUM_FLAGS, readerSite } from './reader-site.ts';

/*
 * `npm run lighthouse`: Lighthouse (performance, accessibility, best practices, SEO) on the
 * content-rich page of the reader test site (code, tables, hints, an image, tabs), desktop
 * and mobile, in Debian's Chromium (CHROME_PATH, default /usr/bin/chromium). Prints the four
 * scores and every audit that did not pass; exits 1 when a score is below 100.
 * Not part of `npm test`: it takes a minute. Scores are recorded in docs/performance.md.
 */

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

async function main() {
  const site = await readerSite();
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  const target = `${site.url}${site.sitePath}`;
  // Warm up: the first render loads the highlighter; Lighthouse measures a running server.
  await fetch(target).then((r) => r.text());
  let failed = false;
  try {
    for (const form of ['desktop', 'mobile'] as const) {
      const result = await lighthouse(
        target,
        { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
        form === 'desktop' ? desktopConfig : undefined,
      );
      if (!result) throw new Error('lighthouse gave no result');
      const { categories, audits } = result.lhr;
      const scores = CATEGORIES.map((c) => `${c} ${Math.round((categories[c]?.score ?? 0) * 100)}`);
      console.log(`${form}: ${scores.join(', ')}`);
      for (const c of CATEGORIES) {
        if ((categories[c]?.score ?? 0) < 1) failed = true;
        for (const ref of categories[c]?.auditRefs ?? []) {
          const audit = audits[ref.id];
          if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
            console.log(`  ${c}: ${audit.id} (${audit.score}) ${audit.title} ${audit.displayValue ?? ''}`);
            const items = ((audit.details as { items?: Array<{ node?: { selector?: string; explanation?: string } }> } | undefined)?.items ?? []).slice(0, 6);
            for (const item of items) if (item.node) console.log(`    ${item.node.selector} ${item.node.explanation?.split('\n')[1] ?? ''}`);
          }
        }
      }
    }
  } finally {
    await chrome.kill();
    await site.close();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
