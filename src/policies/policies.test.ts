import { describe, expect, it } from 'vitest';
import type { RoleName } from '../db/types.ts';
import { changeRequestPolicy } from '../modules/change-requests/change-requests.policy.ts';
import { collectionPolicy } from '../modules/collections/collections.policy.ts';
import { commentPolicy } from '../modules/comments/comments.policy.ts';
import { conversationPolicy } from '../modules/conversations/conversations.policy.ts';
import { invitesPolicy } from '../modules/invites/invites.policy.ts';
import { memberPolicy } from '../modules/members/members.policy.ts';
import { openapiSpecPolicy } from '../modules/openapi-specs/openapi-specs.policy.ts';
import { organizationPolicy, type OrganizationAccess } from '../modules/organizations/organizations.policy.ts';
import { pdfPolicy } from '../modules/pdf/pdf.policy.ts';
import { accessFrom, effectiveRole, spacePolicy, type AccessTarget, type ContentAccess, type ContentFacts } from '../access/index.ts';
import { samlProviderPolicy } from '../modules/saml-providers/saml-providers.policy.ts';
import { sitePolicy, type SiteAccess } from '../modules/sites/sites.policy.ts';
import { teamMembershipPolicy, teamPolicy, type TeamAccess } from '../modules/teams/teams.policy.ts';
import { translationPolicy } from '../modules/translations/translations.policy.ts';
import { userPolicy } from '../modules/users/users.policy.ts';
import { ROLES, type Policy } from './index.ts';

/*
 * Each policy's `permissions(subject)` at each organization role, with no database. The
 * expected tables are written out by hand from the rules' documentation (docs/permissions.md
 * and each policy's comment): one row per action, one mark per role in COLUMNS order,
 * Y allowed and . refused. A rule that changes must change its row here too.
 */

const COLUMNS = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'] as const;
type Column = (typeof COLUMNS)[number];
const roleOf = (column: Column): RoleName | null => (column === 'guest' ? null : column);

/** A table's column for `role` (null: guest): each action and whether it is allowed. */
function columnOf<Action extends string>(table: Record<Action, string>, role: RoleName | null): Record<Action, boolean> {
  const i = COLUMNS.indexOf(role ?? 'guest');
  const rows = Object.entries<string>(table).map(([action, marks]) => [action, marks.replaceAll(' ', '')] as const);
  for (const [action, marks] of rows) expect(marks, `row ${action}`).toMatch(new RegExp(`^[Y.]{${COLUMNS.length}}$`));
  return Object.fromEntries(rows.map(([action, marks]) => [action, marks[i] === 'Y'])) as Record<Action, boolean>;
}

/** For each role, permissions() must equal the table's column: every action, and no other. */
function expectTable<Subject, Action extends string>(policy: Policy<Subject, Action>, subjectAt: (role: RoleName | null) => Subject, table: Record<Action, string>) {
  for (const column of COLUMNS) expect(policy.permissions(subjectAt(roleOf(column))), `at ${column}`).toEqual(columnOf(table, roleOf(column)));
}

const orgAccess = (role: RoleName | null, extra: Partial<OrganizationAccess> = {}): OrganizationAccess => ({ organizationId: 'o', userId: 'me', role, ...extra });
/**
 * A caller's access to a space or collection as the access layer works it out (accessFrom,
 * effective-role.ts) from what it read: by default a member with the organization role
 * `role`, no grants, and `inherit` all the way up.
 */
const contentWith = (facts: Partial<ContentFacts>, target: Partial<Omit<AccessTarget, 'id' | 'organization_id' | 'parent_id'>> = {}, shareKey?: string): ContentAccess =>
  accessFrom({ organizationId: 'o', userId: 'me', member: true, orgRole: null, grants: [], levelsAbove: [], ...facts }, { default_level: 'inherit', ...target }, shareKey);
/** A member whose effective role on the content is their organization role. */
const content = (role: RoleName | null, options: { locked?: boolean } = {}): ContentAccess =>
  contentWith({ orgRole: role }, { edit_mode: options.locked ? 'locked' : 'live' });

describe('organization-scoped policies', () => {
  //                     admin create review edit comment read guest
  it('organizationPolicy', () => {
    expectTable(organizationPolicy, (role) => orgAccess(role), {
      view: '               Y Y Y Y Y Y Y',
      access: '             Y Y Y Y Y Y Y',
      admin: '              Y . . . . . .',
      ownTeam: '            . . . . . . .',
      createContent: '      Y Y . . . . .',
      createOpenAPISpec: '  Y Y . . . . .',
      ingestConversations: 'Y . . . . . .',
      viewBilling: '        Y . . . . . .',
      listMembers: '        Y Y Y Y Y Y .',
      listTeams: '          Y Y Y Y Y Y .',
      listIntegrations: '   Y Y Y Y Y Y .',
      listInstallations: '  Y . . . . . .',
      installIntegration: ' Y . . . . . .',
      readAgentInstructions: 'Y Y Y Y Y Y .',
    });
    // ownTeam is about the team, not the role: a guest who owns a team owns it.
    expect(organizationPolicy.can('ownTeam', orgAccess(null, { ownsTeam: true }))).toBe(true);
  });

  it('conversations, invites, SAML providers, OpenAPI specs, translations', () => {
    expectTable(conversationPolicy, (role) => orgAccess(role), { view: 'Y Y Y Y Y Y .', ingest: 'Y . . . . . .' });
    expectTable(invitesPolicy, (role) => orgAccess(role), { manage: 'Y . . . . . .' });
    expectTable(samlProviderPolicy, (role) => orgAccess(role), { manage: 'Y . . . . . .' });
    expectTable(openapiSpecPolicy, (role) => orgAccess(role), { view: 'Y Y Y Y Y Y .', edit: 'Y Y . . . . .' });
    expectTable(translationPolicy, (role) => orgAccess(role), { view: 'Y Y Y Y Y Y .', edit: 'Y Y . . . . .' });
  });

  it('memberPolicy: about another member, and about oneself (guests see and leave only themselves)', () => {
    expectTable(memberPolicy, (role) => ({ access: orgAccess(role), userId: 'someone-else' }), {
      view: '      Y Y Y Y Y Y .',
      updateRole: 'Y . . . . . .',
      remove: '    Y . . . . . .',
      setSSO: '    Y . . . . . .',
    });
    expectTable(memberPolicy, (role) => ({ access: orgAccess(role), userId: 'me' }), {
      view: '      Y Y Y Y Y Y Y',
      updateRole: 'Y . . . . . .',
      remove: '    Y Y Y Y Y Y Y',
      setSSO: '    Y . . . . . .',
    });
  });

  it('teamPolicy and teamMembershipPolicy: org admins, team owners (not guests), and oneself', () => {
    const team = (role: RoleName | null, teamRole: TeamAccess['teamRole']): TeamAccess => ({ ...orgAccess(role), teamRole });
    expectTable(teamPolicy, (role) => team(role, null), { view: 'Y Y Y Y Y Y .', admin: 'Y . . . . . .', delete: 'Y . . . . . .' });
    expectTable(teamPolicy, (role) => team(role, 'member'), { view: 'Y Y Y Y Y Y .', admin: 'Y . . . . . .', delete: 'Y . . . . . .' });
    expectTable(teamPolicy, (role) => team(role, 'owner'), { view: 'Y Y Y Y Y Y .', admin: 'Y Y Y Y Y Y .', delete: 'Y . . . . . .' });
    expectTable(teamMembershipPolicy, (role) => ({ team: team(role, null), userId: 'someone-else' }), { remove: 'Y . . . . . .' });
    expectTable(teamMembershipPolicy, (role) => ({ team: team(role, 'owner'), userId: 'someone-else' }), { remove: 'Y Y Y Y Y Y .' });
    expectTable(teamMembershipPolicy, (role) => ({ team: team(role, null), userId: 'me' }), { remove: 'Y Y Y Y Y Y Y' });
  });

  it('userPolicy: oneself and people one works with', () => {
    expect(userPolicy.permissions({ isSelf: true, sharesOrganization: false })).toEqual({ view: true });
    expect(userPolicy.permissions({ isSelf: false, sharesOrganization: true })).toEqual({ view: true });
    expect(userPolicy.permissions({ isSelf: false, sharesOrganization: false })).toEqual({ view: false });
  });
});

describe('sitePolicy', () => {
  const site = (role: RoleName | null, extra: Partial<SiteAccess> = {}): SiteAccess => ({ organizationId: 'o', userId: 'me', role, creator: false, visitor: false, ...extra });
  const managedBy = (manage: string) => ({
    view: '              Y Y Y Y Y Y .',
    access: '            Y Y Y Y Y Y .',
    edit: manage,
    create: manage,
    admin: manage,
    installIntegration: 'Y . . . . . .',
    viewAdaptiveSchema: 'Y Y Y Y Y Y .',
    editAdaptiveSchema: manage,
    manage,
  });

  it('admins manage every site; the create role manages the sites it created', () => {
    expectTable(sitePolicy, (role) => site(role), managedBy('Y . . . . . .'));
    expectTable(sitePolicy, (role) => site(role, { creator: true }), managedBy('Y Y . . . . .'));
  });

  it('a visitor of the published site views it and nothing more', () => {
    expect(sitePolicy.permissions(site(null, { visitor: true }))).toEqual({
      view: true, access: false, edit: false, create: false, admin: false, installIntegration: false, viewAdaptiveSchema: false, editAdaptiveSchema: false, manage: false,
    });
  });
});

describe('content policies (effective role on a space or collection)', () => {
  //                     admin create review edit comment read guest
  const spaceTable = {
    view: '              Y Y Y Y Y Y .',
    access: '            Y Y Y Y Y Y .',
    admin: '             Y . . . . . .',
    viewInviteLinks: '   Y . . . . . .',
    edit: '              Y Y Y Y . . .',
    triggerGitSync: '    Y Y Y Y . . .',
    comment: '           Y Y Y Y Y . .',
    merge: '             Y Y Y . . . .',
    review: '            Y Y Y . . . .',
    installIntegration: 'Y . . . . . .',
    rename: '            Y Y Y Y . . .',
  };
  const collectionTable = {
    view: '           Y Y Y Y Y Y .',
    admin: '          Y . . . . . .',
    viewInviteLinks: 'Y . . . . . .',
    create: '         Y Y . . . . .',
  };
  const changeRequestTable = {
    view: '         Y Y Y Y Y Y .',
    create: '       Y Y Y Y . . .',
    edit: '         Y Y Y Y . . .',
    update: '       Y Y Y Y . . .',
    review: '       Y Y Y . . . .',
    merge: '        Y Y Y . . . .',
    requestReview: 'Y Y Y Y . . .',
  };
  const commentTable = {
    view: ' Y Y Y Y Y Y .',
    edit: ' . . . . . . .',
    reply: 'Y Y Y Y Y . .',
    delete: 'Y . . . . . .',
  };
  const pdfTable = { export: 'Y Y Y Y Y Y .' };

  it('spacePolicy, unlocked and locked (a lock stops edits and merges only)', () => {
    expectTable(spacePolicy, (role) => content(role), spaceTable);
    expectTable(spacePolicy, (role) => content(role, { locked: true }), { ...spaceTable, edit: '. . . . . . .', merge: '. . . . . . .' });
  });

  it('a guest with a grant acts at the granted role; an outsider of a public space only views', () => {
    expect(spacePolicy.permissions(contentWith({ orgRole: null, grants: ['edit'] }))).toEqual(spacePolicy.permissions(content('edit')));
    const visitor = spacePolicy.permissions(contentWith({ member: false }, { visibility: 'public' }));
    expect(Object.entries(visitor).filter(([, allowed]) => allowed).map(([action]) => action)).toEqual(['view']);
  });

  it('collectionPolicy', () => {
    expectTable(collectionPolicy, (role) => content(role), collectionTable);
  });

  it('changeRequestPolicy: by role, and for the creator of the change request', () => {
    const table = changeRequestTable;
    expectTable(changeRequestPolicy, (role) => ({ space: content(role), isCreator: false }), table);
    expectTable(changeRequestPolicy, (role) => ({ space: content(role), isCreator: true }), { ...table, update: 'Y Y Y Y Y Y .', requestReview: 'Y Y Y Y Y Y .' });
    expectTable(changeRequestPolicy, (role) => ({ space: content(role, { locked: true }), isCreator: false }), { ...table, create: '. . . . . . .', edit: '. . . . . . .', merge: '. . . . . . .' });
  });

  it('commentPolicy: by role, and for the author of the comment', () => {
    expectTable(commentPolicy, (role) => ({ space: content(role), isAuthor: false }), commentTable);
    expectTable(commentPolicy, (role) => ({ space: content(role), isAuthor: true }), {
      view: ' Y Y Y Y Y Y .',
      edit: ' Y Y Y Y Y . .',
      reply: 'Y Y Y Y Y . .',
      delete: 'Y Y Y Y Y . .',
    });
  });

  it('pdfPolicy: whoever views the space exports it, visitors of a public space included', () => {
    expectTable(pdfPolicy, (role) => content(role), pdfTable);
    expect(pdfPolicy.permissions(contentWith({ member: false }, { visibility: 'public' }))).toEqual({ export: true });
  });

  /*
   * The columns above are the effective role however it was gained. Each case is what the
   * access layer read about a member (organization role, grants on the space or a
   * collection above it, defaultLevels nearest first, visibility, share key) and the role
   * the definition in effective-role.ts gives for it, written out; accessFrom must work out
   * that role, and every content policy must then answer exactly that role's column.
   */
  type Way = { name: string; facts: Partial<ContentFacts>; target?: Partial<AccessTarget>; shareKey?: string; role: RoleName | null };
  const waysToGain: Way[] = [
    ...ROLES.flatMap((granted): Way[] => [
      { name: `guest granted ${granted}`, facts: { orgRole: null, grants: [granted] }, role: granted },
      { name: `reader granted ${granted}`, facts: { orgRole: 'read', grants: [granted] }, role: granted },
      { name: `reader, the space's defaultLevel ${granted}`, facts: { orgRole: 'read' }, target: { default_level: granted }, role: granted },
      // The space inherits, its collection inherits too, the next one up decides; the farthest is not reached.
      { name: `reader, ${granted} inherited from the second collection up`, facts: { orgRole: 'read', levelsAbove: ['inherit', granted, 'admin'] }, role: granted },
    ]),
    { name: 'guest, no grant', facts: { orgRole: null }, role: null },
    { name: 'guest, the space\'s defaultLevel edit (guests get grants only)', facts: { orgRole: null }, target: { default_level: 'edit' }, role: null },
    { name: 'guest, a collection\'s defaultLevel review (guests get grants only)', facts: { orgRole: null, levelsAbove: ['review'] }, role: null },
    { name: 'editor, the space\'s defaultLevel read (the highest wins)', facts: { orgRole: 'edit' }, target: { default_level: 'read' }, role: 'edit' },
    { name: 'admin granted read', facts: { orgRole: 'admin', grants: ['read'] }, role: 'admin' },
    { name: 'commenter granted read, the space\'s defaultLevel read (lower roles never lower it)', facts: { orgRole: 'comment', grants: ['read'] }, target: { default_level: 'read' }, role: 'comment' },
    { name: 'guest, public space', facts: { orgRole: null }, target: { visibility: 'public' }, role: 'read' },
    { name: 'guest, unlisted space', facts: { orgRole: null }, target: { visibility: 'unlisted' }, role: 'read' },
    { name: 'guest, share link with its key', facts: { orgRole: null }, target: { visibility: 'share-link', share_key: 'k' }, shareKey: 'k', role: 'read' },
    { name: 'guest, share link with another key', facts: { orgRole: null }, target: { visibility: 'share-link', share_key: 'k' }, shareKey: 'x', role: null },
    { name: 'guest, private space with the share key', facts: { orgRole: null }, target: { visibility: 'private', share_key: 'k' }, shareKey: 'k', role: null },
    { name: 'editor granted comment on a public space', facts: { orgRole: 'edit', grants: ['comment'] }, target: { visibility: 'public' }, role: 'edit' },
  ];

  it.each(waysToGain)('$name: effective role $role, and every content policy answers its column', ({ facts, target, shareKey, role }) => {
    const access = contentWith(facts, target, shareKey);
    expect(access.role).toBe(role);
    expect(spacePolicy.permissions(access)).toEqual(columnOf(spaceTable, role));
    expect(collectionPolicy.permissions(access)).toEqual(columnOf(collectionTable, role));
    expect(changeRequestPolicy.permissions({ space: access, isCreator: false })).toEqual(columnOf(changeRequestTable, role));
    expect(commentPolicy.permissions({ space: access, isAuthor: false })).toEqual(columnOf(commentTable, role));
    expect(pdfPolicy.permissions(access)).toEqual(columnOf(pdfTable, role));
  });

  it('effectiveRole: the highest of organization role, grants and defaultLevel; guests get grants only; visibility gives read', () => {
    const cases: [Parameters<typeof effectiveRole>[0], RoleName | null][] = [
      [{ member: true, orgRole: 'read', grants: [], defaultLevels: [] }, 'read'],
      [{ member: true, orgRole: 'read', grants: ['edit'], defaultLevels: [] }, 'edit'],
      [{ member: true, orgRole: 'read', grants: [], defaultLevels: ['inherit', 'review'] }, 'review'],
      [{ member: true, orgRole: 'admin', grants: ['read'], defaultLevels: ['comment'] }, 'admin'],
      [{ member: true, orgRole: null, grants: [], defaultLevels: ['edit'] }, null],
      [{ member: true, orgRole: null, grants: ['comment'], defaultLevels: ['edit'] }, 'comment'],
      [{ member: false, orgRole: null, grants: ['edit'], defaultLevels: ['edit'] }, null],
      [{ member: false, orgRole: null, grants: [], defaultLevels: [], visibility: 'public' }, 'read'],
      [{ member: false, orgRole: null, grants: [], defaultLevels: [], visibility: 'unlisted' }, 'read'],
      [{ member: false, orgRole: null, grants: [], defaultLevels: [], visibility: 'share-link', shareKeyValid: false }, null],
      [{ member: false, orgRole: null, grants: [], defaultLevels: [], visibility: 'share-link', shareKeyValid: true }, 'read'],
    ];
    for (const [inputs, expected] of cases) expect(effectiveRole(inputs), JSON.stringify(inputs)).toBe(expected);
  });
});
