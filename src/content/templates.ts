import type { NewPage } from './store/editor.ts';

/*
 * Built-in space templates (GitBook's applyTemplateToSpace): a starting structure of
 * pages. Applying one adds its pages after what the space holds; nothing is replaced.
 */

export interface SpaceTemplate {
  id: string;
  title: string;
  pages: NewPage[];
}

const page = (title: string, markdown: string, pages: NewPage[] = []): NewPage => ({ title, markdown, pages });

export const SPACE_TEMPLATES: readonly SpaceTemplate[] = [
  {
    id: 'blank',
    title: 'Blank',
    pages: [page('Untitled', '')],
  },
  {
    id: 'product-docs',
    title: 'Product documentation',
    pages: [
      page('Overview', '# Overview\n\nWhat the product does, and for whom.\n'),
      page('Getting started', '# Getting started\n\n{% stepper %}\n{% step %}\n### Install\n\nInstall the product.\n{% endstep %}\n\n{% step %}\n### Configure\n\nSet it up.\n{% endstep %}\n{% endstepper %}\n', [
        page('Quickstart', '# Quickstart\n\nThe shortest path to a first result.\n'),
      ]),
      page('Guides', '# Guides\n\nStep-by-step guides for common tasks.\n'),
      page('FAQ', '# FAQ\n\n<details>\n\n<summary>How do I get help?</summary>\n\nAsk your administrator.\n\n</details>\n'),
    ],
  },
  {
    id: 'api-docs',
    title: 'API documentation',
    pages: [
      page('Introduction', '# Introduction\n\nWhat the API offers and how to reach it.\n'),
      page('Authentication', '# Authentication\n\n{% hint style="info" %}\nEvery request carries a token.\n{% endhint %}\n'),
      page('Reference', '# Reference\n\nEndpoints, grouped by resource.\n'),
      page('Changelog', '# Changelog\n\nWhat changed, release by release.\n'),
    ],
  },
  {
    id: 'knowledge-base',
    title: 'Knowledge base',
    pages: [
      page('Home', '# Home\n\nAnswers to the questions people ask most.\n'),
      page('Processes', '# Processes\n\nHow things are done here.\n'),
      page('Troubleshooting', '# Troubleshooting\n\nKnown problems and their fixes.\n'),
    ],
  },
];

export function findTemplate(id: string): SpaceTemplate | undefined {
  return SPACE_TEMPLATES.find((t) => t.id === id);
}
