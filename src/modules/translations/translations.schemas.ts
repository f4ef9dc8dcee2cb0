import { Type, type Static } from 'typebox';
import { ListOf, PageQuery, Timestamp, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';
import { RichTextDocument } from '../organizations/organizations.schemas.ts';

/** GitBook's TranslationLanguage enum. */
export const TRANSLATION_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'pt-br', 'ru', 'ja', 'zh', 'zh-tw', 'yue', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th', 'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl'] as const;
export type TranslationLanguageName = (typeof TRANSLATION_LANGUAGES)[number];

/** Limits (docs/decisions/translations.md). */
export const MAX_GLOSSARY_ENTRIES = 5000;
export const MAX_GLOSSARY_OPERATIONS = 500;


export const TranslationLanguage = component(
  'TranslationLanguage',
  Type.Unsafe<TranslationLanguageName>({ type: 'string', enum: [...TRANSLATION_LANGUAGES], description: 'A language translations work with' }),
);

export const OrganizationParams = Type.Object({ organizationId: Id('The unique id of the organization') });
export const TranslationParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  translationId: Id('The unique id of the translation'),
});
export const GlossaryEntryParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  glossaryEntryId: Id('The unique id of the glossary entry'),
});

export const TranslationSource = Type.Object(
  {
    space: Id('ID of the source space'),
    language: ref(TranslationLanguage),
  },
  { additionalProperties: false },
);

export const CreateTranslationBody = Type.Object(
  {
    source: TranslationSource,
    language: ref(TranslationLanguage),
    instructions: Type.Optional(ref(RichTextDocument)),
  },
  { additionalProperties: false },
);
export type CreateTranslationInput = Static<typeof CreateTranslationBody>;

export const UpdateTranslationBody = Type.Object({ instructions: ref(RichTextDocument) }, { additionalProperties: false });
export type UpdateTranslationInput = Static<typeof UpdateTranslationBody>;

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const Translation = component(
  'Translation',
  Type.Object(
    {
      object: Type.Literal('translation'),
      id: Type.String(),
      status: Type.Union([Type.Literal('pending'), Type.Literal('running'), Type.Literal('completed')], {
        description: 'pending: no run finished since the last request (or none ever completed); running; completed: the result is up to date with the last run',
      }),
      source: Type.Object({ space: Type.String(), language: ref(TranslationLanguage) }),
      language: ref(TranslationLanguage),
      instructions: ref(RichTextDocument),
      result: Type.Optional(
        Type.Object({
          space: Type.String({ description: 'The space holding the translation' }),
          revision: Type.String({ description: 'The revision the latest successful run wrote' }),
          language: ref(TranslationLanguage),
        }),
      ),
      createdAt: Timestamp,
      updatedAt: Timestamp,
      stats: Type.Object({
        runs: Count('Completed runs'),
        totalWords: Count('Words sent to the provider over all runs'),
        totalPages: Count('Distinct source pages translated over all runs'),
        totalDuration: Count('Sum of latestRunDuration over all runs (seconds)'),
        latestRunDuration: Count('Duration of the latest completed run (seconds, rounded up)'),
        latestPages: Count('Pages sent to the provider in the latest completed run'),
        latestWords: Count('Words sent to the provider in the latest completed run'),
      }),
      lastRun: Type.Optional(
        Type.Object(
          {
            state: Type.Union([Type.Literal('completed'), Type.Literal('failed')]),
            error: Type.Optional(Type.String({ description: 'Why the run failed; the previous result is kept' })),
            finishedAt: Timestamp,
          },
          { description: 'Quire: how the latest run ended (a failed run leaves status as it was before the run and result unchanged)' },
        ),
      ),
      permissions: Type.Object({ view: Type.Boolean(), edit: Type.Boolean() }),
      urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
    },
    { description: 'A space kept translated into another language' },
  ),
);
export const TranslationList = ListOf(ref(Translation), 'Translations, oldest first');

export const ListTranslationsQuery = Type.Object({ ...PageQuery });

/** Language code -> term; the term matched in the source language, written as given in the target one. */
export const GlossaryTranslations = component(
  'GlossaryTranslations',
  Type.Record(Type.String({ minLength: 1, maxLength: 16 }), Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\n\\r]*$' }), {
    description: 'Mapping of language codes to translated terms',
  }),
);

export const GlossaryEntry = component(
  'GlossaryEntry',
  Type.Object(
    {
      object: Type.Literal('glossary-entry'),
      id: Type.String(),
      translations: ref(GlossaryTranslations),
      createdAt: Timestamp,
      updatedAt: Timestamp,
      urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
    },
    { description: 'A term and its form per language' },
  ),
);
export const GlossaryEntryList = ListOf(ref(GlossaryEntry), 'Glossary entries');

export const ListGlossaryQuery = Type.Object({
  ...PageQuery,
  orderBy: Type.Optional(ref(TranslationLanguage)),
});

/* One variant per operation; the union stays open (docs/architecture.md) and the service checks each. */
export const GlossaryBatchOperation = Type.Union([
  Type.Object({ type: Type.Literal('insert'), translations: ref(GlossaryTranslations) }),
  Type.Object({ type: Type.Literal('update'), id: Id('The entry to replace'), translations: ref(GlossaryTranslations) }),
  Type.Object({ type: Type.Literal('delete'), id: Id('The entry to delete') }),
]);
export const UpdateGlossaryBody = Type.Object(
  { operations: Type.Array(GlossaryBatchOperation, { maxItems: MAX_GLOSSARY_OPERATIONS }) },
  { additionalProperties: false },
);
export type GlossaryOperation = Static<typeof GlossaryBatchOperation>;
