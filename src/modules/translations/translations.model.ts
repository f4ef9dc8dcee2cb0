import type { TranslationRow } from './translations.repository.ts';

/** Run durations are counted in whole seconds, rounded up (a run that happened took time): stored and shown so. */
export const durationSeconds = (ms: number) => Math.ceil(Math.max(0, ms) / 1000);

/** What the caller may do with translations (the Translation wire object's `permissions`). */
export interface TranslationPermissions {
  view: boolean;
  edit: boolean;
}

/** A translation as the caller sees it: its row and the caller's permissions. */
export interface TranslationResult {
  translation: TranslationRow;
  permissions: TranslationPermissions;
}
