/*
 * GitBook's block and inline types <-> the node names of the editor schema (schema.ts), and
 * the containers of the nodes whose children are blocks. Re-exported by schema.ts.
 */
import type { Container } from '../content/markdown/dialect.ts';

/** GitBook block type <-> ProseMirror node name, for the blocks that map one to one. */
export const NODE_OF_BLOCK: Record<string, string> = {
  paragraph: 'paragraph',
  'heading-1': 'heading',
  'heading-2': 'heading',
  'heading-3': 'heading',
  divider: 'divider',
  'list-unordered': 'list_unordered',
  'list-ordered': 'list_ordered',
  'list-tasks': 'list_tasks',
  'list-item': 'list_item',
  code: 'code_block',
  'code-line': 'code_line',
  blockquote: 'blockquote',
  hint: 'hint',
  math: 'math',
  images: 'images',
  image: 'image',
  file: 'file',
  embed: 'embed',
  drawing: 'drawing',
  'content-ref': 'content_ref',
  expandable: 'expandable',
  tabs: 'tabs',
  'tabs-item': 'tabs_item',
  stepper: 'stepper',
  'stepper-step': 'stepper_step',
  updates: 'updates',
  update: 'update',
  columns: 'columns',
  column: 'column',
  table: 'table',
  'openapi-operation': 'openapi_operation',
  integration: 'integration',
};

export const BLOCK_OF_NODE: Record<string, string> = Object.fromEntries(Object.entries(NODE_OF_BLOCK).filter(([, node]) => node !== 'heading').map(([block, node]) => [node, block]));

export const NODE_OF_INLINE: Record<string, string> = {
  mention: 'mention',
  button: 'button',
  'inline-image': 'inline_image',
  'inline-math': 'inline_math',
  expression: 'expression',
  icon: 'icon',
  emoji: 'emoji',
};

export const INLINE_OF_NODE: Record<string, string> = Object.fromEntries(Object.entries(NODE_OF_INLINE).map(([inline, node]) => [node, inline]));

/** Container name of a node whose children are blocks, for the group check. */
export const CONTAINER_OF_NODE: Record<string, Container> = {
  doc: 'document',
  list_item: 'list-item',
  blockquote: 'blockquote',
  hint: 'hint',
  expandable_body: 'expandable-body',
  tabs_item: 'tabs-item',
  stepper_step: 'stepper-step',
  update: 'update',
  column: 'column',
};
