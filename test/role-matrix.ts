import type { RoleName } from '../src/db/types.ts';
import type { TestApp } from './app.ts';
import { createMember, createOrganization, createUser, type TestOrganization, type TestUser } from './factories.ts';

/*
 * One organization with one member of each role, its admin and a user who is not a
 * member: the cast of every authorization test. `roles` picks which members to make and
 * in which order (join times, and so member lists, follow that order); a member not made
 * is an error to use, so a test cannot lean on a role it did not ask for. An outsider
 * organization (another tenant, with its own admin) is made only when asked for, right
 * after the first, so suites that never look across tenants keep their data as it was.
 */

/** Members by role: guest is a member invited to some content only (no organization role). */
const MEMBER_OF_ROLE = {
  create: 'creator',
  review: 'reviewer',
  edit: 'editor',
  comment: 'commenter',
  read: 'reader',
} as const satisfies Record<Exclude<RoleName, 'admin'>, string>;

export type MatrixRole = Exclude<RoleName, 'admin'> | 'guest';

/** Every role below admin, most powerful first, then guest. */
export const MATRIX_ROLES: readonly MatrixRole[] = ['create', 'review', 'edit', 'comment', 'read', 'guest'];

export interface RoleMatrix {
  org: TestOrganization;
  admin: TestUser;
  creator: TestUser;
  reviewer: TestUser;
  editor: TestUser;
  commenter: TestUser;
  reader: TestUser;
  guest: TestUser;
  /** A user of no organization here. */
  outsider: TestUser;
  /** Another organization with its own admin (only with `outsiderOrganization`). */
  outsiderOrg: TestOrganization;
  /** Each member's token by role (admin included), for table-driven tests. */
  tokens: Partial<Record<RoleName | 'guest', string>>;
}

const memberField = (role: MatrixRole) => (role === 'guest' ? 'guest' : MEMBER_OF_ROLE[role]);

/** Builds the organization, its admin, the outsider organization if asked, one member per role in `roles`, then the outsider. */
export async function createRoleMatrix(
  t: TestApp,
  options: { title?: string; emailDomains?: string[]; roles?: readonly MatrixRole[]; outsiderOrganization?: { title?: string } } = {},
): Promise<RoleMatrix> {
  const org = await createOrganization(t, { title: options.title, emailDomains: options.emailDomains });
  const outsiderOrg = options.outsiderOrganization && (await createOrganization(t, { title: options.outsiderOrganization.title }));
  const members: Partial<Record<string, TestUser>> = {};
  const tokens: RoleMatrix['tokens'] = { admin: org.admin.token };
  for (const role of options.roles ?? MATRIX_ROLES) {
    const user = await createMember(t, org.id, role === 'guest' ? null : role);
    members[memberField(role)] = user;
    tokens[role] = user.token;
  }
  const outsider = await createUser(t);
  const matrix = { org, admin: org.admin, outsider, tokens } as RoleMatrix;
  Object.defineProperty(matrix, 'outsiderOrg', {
    enumerable: true,
    get() {
      if (!outsiderOrg) throw new Error('roleMatrix: no outsider organization was made (pass outsiderOrganization)');
      return outsiderOrg;
    },
  });
  for (const role of MATRIX_ROLES) {
    const field = memberField(role);
    const user = members[field];
    Object.defineProperty(matrix, field, {
      enumerable: true,
      get() {
        if (!user) throw new Error(`roleMatrix: no ${role} member was made (add '${role}' to roles)`);
        return user;
      },
    });
  }
  return matrix;
}
