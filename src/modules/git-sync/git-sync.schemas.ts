import { Type, type Static } from 'typebox';
import { Timestamp, Id } from '../../schemas/common.ts';


export const SpaceParams = Type.Object({ spaceId: Id('The unique id of the space') });

const GitInfo = Type.Object(
  {
    provider: Type.Optional(Type.Union([Type.Literal('github'), Type.Literal('gitlab')], { description: 'The git provider' })),
    url: Type.Optional(Type.String({ maxLength: 2048, description: 'The repository’s tree URL (browse URL)' })),
  },
  { additionalProperties: false, description: 'Metadata about the git provider (deprecated in GitBook, still honoured)' },
);

const common = {
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'URL of the git repository (http or https); may carry basic-auth credentials, used for this operation only' }),
  ref: Type.String({ minLength: 12, maxLength: 255, pattern: '^refs/heads/[^\\s~^:?*\\[\\\\]+$', description: 'The branch, as refs/heads/<name>' }),
  repoCacheID: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Key of the local cache of fetched repositories (the same key makes the next fetch incremental)' })),
  repoTreeURL: Type.Optional(Type.String({ maxLength: 2048, description: 'Prefix of the URLs of files in the repository' })),
  repoCommitURL: Type.Optional(Type.String({ maxLength: 2048, description: 'Prefix of the URL of a commit (the commit id is appended)' })),
  repoProjectDirectory: Type.Optional(Type.String({ maxLength: 1000, description: 'Folder of the repository holding the content' })),
  timestamp: Type.Optional(Type.String({ format: 'date-time', description: 'When the triggering event happened; orders import and export operations' })),
  force: Type.Optional(Type.Boolean({ description: 'Run even when older than the last operation applied; export: allow a non-fast-forward push' })),
  gitInfo: Type.Optional(GitInfo),
};

export const ImportBody = Type.Object(
  { ...common, standalone: Type.Optional(Type.Boolean({ description: 'Make the revision without moving the space’s content to it' })) },
  { additionalProperties: false },
);
export type ImportInput = Static<typeof ImportBody>;

export const ExportBody = Type.Object(
  {
    ...common,
    commitMessage: Type.String({ minLength: 1, maxLength: 10_000, description: 'Message of the commit' }),
    standalone: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility: the export is not recorded as the space’s sync state' })),
  },
  { additionalProperties: false },
);
export type ExportInput = Static<typeof ExportBody>;

export const GitSyncState = Type.Object(
  {
    repoName: Type.Optional(Type.String({ description: 'Repository name' })),
    installationId: Type.String({ description: 'Id of the sync installation (the space’s)' }),
    installationProvider: Type.String({ description: 'The git provider (gitInfo.provider)' }),
    installationStatus: Type.String({ description: 'active' }),
    integration: Type.Optional(Type.String({ description: 'The integration providing the sync' })),
    url: Type.Optional(Type.String({ description: 'Browse URL of the repository (gitInfo.url)' })),
    updatedAt: Type.Optional(Timestamp),
  },
  { description: 'The git sync of a space (GitBook GitSyncState)' },
);
export type GitSyncStateWire = Static<typeof GitSyncState>;
