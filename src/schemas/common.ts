import { Type, type TSchema } from 'typebox';
import { component, ref } from './registry.ts';

/*
 * Wire shapes shared by every module: error body, list envelope, timestamps, roles.
 */

export const ErrorBody = component(
  'Error',
  Type.Object(
    {
      error: Type.Object({
        code: Type.Integer({ description: 'HTTP status code' }),
        message: Type.String({ description: 'What went wrong, naming the field when a parameter is invalid' }),
      }),
    },
    { description: 'Body of every error response' },
  ),
);

export const Timestamp = Type.String({ format: 'date-time' });

/** An object's id in a path or a body: what every id of the API accepts. */
export const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

export const RoleSchema = component(
  'MemberRole',
  Type.Union(
    [
      Type.Literal('admin'),
      Type.Literal('create'),
      Type.Literal('review'),
      Type.Literal('edit'),
      Type.Literal('comment'),
      Type.Literal('read'),
    ],
    {
      description:
        'Role of a member: admin (administrate content, create and delete spaces), create (create content), ' +
        'review (review content), edit (edit live or through change requests), comment (access content and ' +
        'its discussions), read (read-only)',
    },
  ),
);

export const RoleOrGuest = Type.Union([ref(RoleSchema), Type.Null()], {
  description: 'Role of a member in an organization, null for guests',
});

export const TeamRoleSchema = component(
  'TeamMemberRole',
  Type.Union([Type.Literal('owner'), Type.Literal('member')], {
    description: 'owner: can manage team members; member: belongs to the team',
  }),
);

/** Query parameters of every list: `page` (opaque cursor) and `limit`. */
export const PageQuery = {
  page: Type.Optional(Type.String({ description: 'Identifier of the page results to fetch (from next.page or previous.page)' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'The number of results per page (1 to 1000)' }),
  ),
};

export const OrderQuery = Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
  description: 'Order of the results, default desc',
});

/** The list envelope `{ next?, previous?, count, items }` around items of one shape. */
export function ListOf<T extends TSchema>(item: T, description: string) {
  return Type.Object(
    {
      next: Type.Optional(Type.Object({ page: Type.String({ description: 'Pass as `page` to get the next results' }) })),
      previous: Type.Optional(
        Type.Object({ page: Type.String({ description: 'Pass as `page` to get the previous results' }) }),
      ),
      count: Type.Integer({ description: 'Total count of objects in the list' }),
      items: Type.Array(item),
    },
    { description },
  );
}

/** Error responses a route may answer, so the OpenAPI document lists them. */
export function errorResponses(...codes: number[]) {
  return Object.fromEntries(codes.map((code) => [code, ref(ErrorBody)]));
}
