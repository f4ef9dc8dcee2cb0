import { Type, type Static } from 'typebox';
import { ListOf, OrderQuery, PageQuery, Timestamp, Id } from '../../schemas/common.ts';
import { component, ref } from '../../schemas/registry.ts';


/** Limits of one ingested conversation (docs/decisions/conversations.md). */
export const MAX_PARTS = 500;
export const MAX_PART_LENGTH = 100_000;

export const OrganizationParams = Type.Object({ organizationId: Id('The unique id of the organization') });
export const ConversationParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  conversationId: Type.String({ minLength: 1, maxLength: 200, description: 'The id the conversation was ingested with' }),
});
export const IssueParams = Type.Object({
  organizationId: Id('The unique id of the organization'),
  issueId: Id('The unique id of the conversation issue'),
});

export const ConversationRole = Type.Union([Type.Literal('user'), Type.Literal('assistant')], {
  description: 'Who wrote the message: user (the person asking) or assistant (the support agent or bot)',
});

export const ConversationPart = Type.Object(
  {
    type: Type.Literal('message'),
    role: ConversationRole,
    body: Type.String({ maxLength: MAX_PART_LENGTH, description: 'The text of the message' }),
  },
  { description: 'One message of a conversation' },
);

export const ConversationMetadata = Type.Object(
  {
    url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'Where the conversation is in its source system' })),
    attributes: Type.Optional(
      Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 1000 }), {
        description: 'Free attributes; `source` names where the conversation comes from',
      }),
    ),
    createdAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the conversation took place (default: when ingested)' })),
  },
  { description: 'What the ingesting system knows about the conversation' },
);

export const IngestConversationBody = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200, description: 'The conversation’s id in its source; ingesting it again updates it' }),
  subject: Type.Optional(Type.String({ maxLength: 500, description: 'Subject of the conversation' })),
  metadata: Type.Optional(ConversationMetadata),
  parts: Type.Array(ConversationPart, { minItems: 1, maxItems: MAX_PARTS, description: 'The messages, in order' }),
});
export type IngestConversationInput = Static<typeof IngestConversationBody>;

export const Conversation = component(
  'Conversation',
  Type.Object(
    {
      object: Type.Literal('conversation'),
      id: Type.String(),
      subject: Type.String(),
      createdAt: Timestamp,
      processedAt: Type.Optional(Timestamp),
      source: Type.String({ description: 'Where it comes from: metadata.attributes.source, else the host of metadata.url, else "api"' }),
      urls: Type.Object({
        location: Type.String({ format: 'uri' }),
        source: Type.Optional(Type.String({ description: 'metadata.url, when given' })),
      }),
    },
    { description: 'An ingested support conversation' },
  ),
);
export const ConversationList = ListOf(ref(Conversation), 'Conversations, newest first');

export const ConversationWithParts = Type.Object({
  conversation: ref(Conversation),
  parts: Type.Array(ConversationPart),
  metadata: ConversationMetadata,
});

export const ConversationIssue = component(
  'ConversationIssue',
  Type.Object(
    {
      object: Type.Literal('conversation-issue'),
      id: Type.String(),
      title: Type.String(),
      summary: Type.String(),
      createdAt: Timestamp,
      ingestedAt: Timestamp,
      conversation: Type.String({ description: 'Id of the conversation it was found in' }),
      cluster: Type.Optional(Type.String({ description: 'Id of its cluster; absent until clustered' })),
      urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
    },
    { description: 'A documentation problem a conversation reveals' },
  ),
);
export const IssueWithConversation = Type.Object({ issue: ref(ConversationIssue), conversation: ref(Conversation) });
export const IssueList = ListOf(IssueWithConversation, 'Issues with their conversations, newest first');

export const IssuesCluster = component(
  'ConversationIssuesCluster',
  Type.Object(
    {
      object: Type.Literal('issues-cluster'),
      id: Type.String(),
      label: Type.String(),
      createdAt: Timestamp,
      updatedAt: Timestamp,
      icon: Type.String({ description: 'Name of an icon for the problem' }),
      summary: Type.String(),
      weeklyPulse: Type.Array(Type.Integer(), { minItems: 13, maxItems: 13, description: 'Issues per week over the last 13 weeks, oldest first' }),
      sources: Type.Record(Type.String(), Type.Integer(), { description: 'Conversations per source' }),
      stats: Type.Object({ issues: Type.Integer(), conversations: Type.Integer() }),
      urls: Type.Object({ location: Type.String({ format: 'uri', description: 'The list of its issues' }) }),
    },
    { description: 'Issues of the same underlying documentation problem' },
  ),
);
export const ClusterList = ListOf(ref(IssuesCluster), 'Issues clusters');

export const ListConversationsQuery = Type.Object({
  ...PageQuery,
  source: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only conversations from this source' })),
});
export const ListIssuesQuery = Type.Object({
  ...PageQuery,
  cluster: Type.Optional(Id('Only issues of this cluster')),
  conversation: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only issues of this conversation' })),
});
export const ListClustersQuery = Type.Object({
  ...PageQuery,
  order: Type.Optional(OrderQuery),
  sort: Type.Optional(Type.Union([Type.Literal('updatedAt'), Type.Literal('createdAt')], { description: 'Sort field (default updatedAt)' })),
});
export type ListClustersOptions = { order: 'asc' | 'desc'; sort: 'updatedAt' | 'createdAt' };
