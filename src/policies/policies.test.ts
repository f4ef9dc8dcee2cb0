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
import { effectiveRole, spacePolicy, type ContentAccess } from '../access/index.ts';
import { samlProviderPolicy } from '../modules/saml-providers/saml-providers.policy.ts';
import { sitePolicy, type SiteAccess } from '../modules/sites/sites.policy.ts';
import { teamMembershipPolicy, teamPolicy, type TeamAccess } from '../modules/teams/teams.policy.ts';
import { translationPolicy } from '../modules/translations/translations.policy.ts';
import { userPolicy } from '../modules/users/users.policy.ts';
import type { Policy } from './index.ts';

/*
 * Each policy's `permissions(subject)` at each organization role, with no database. The
 * expected tables are written out by hand from the rules' documentation (docs/permissions.md
 * and each policy's comment): one row per action, one mark per role in COLUMNS order,
 * Y allowed and . refused. A rule that changes must change its row here too.
 */

const COLUMNS = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'] as const;
type Column = (typeof COLUMNS)[number];
const roleOf = (column: Column): RoleName | null => (column === 'guest' ? null : column);

/** For each role, permissions() must equal the table's column: every action, and no other. */
function expectTable<Subject, Action extends string>(policy: Policy<Subject, Action>, subjectAt: (role: RoleName | null) => Subject, table: Record<Action, string>) {
  const rows = Object.entries<string>(table).map(([action, marks]) => [action, marks.replaceAll(' ', '')] as const);
  for (const [action, marks] of rows) expect(marks, `row ${action}`).toMatch(new RegExp(`^[Y.]{${COLUMNS.length}}$`));
  COLUMNS.forEach((column, i) => {
    const expected = Object.fromEntries(rows.map(([action, marks]) => [action, marks[i] === 'Y']));
    expect(policy.permissions(subjectAt(roleOf(column))), `at ${column}`).toEqual(expected);
  });
}

const orgAccess = (role: RoleName | null, extra: Partial<OrganizationAccess> = {}): OrganizationAccess => ({ organizationId: 'o', userId: 'me', role, ...extra });
/** A member whose effective role on the content is their organization role (no grants, no defaultLevel). */
const content = (role: RoleName | null, extra: Partial<ContentAccess> = {}): ContentAccess => ({ organizationId: 'o', userId: 'me', member: true, orgRole: role, role, ...extra });

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

  it('spacePolicy, unlocked and locked (a lock stops edits and merges only)', () => {
    expectTable(spacePolicy, (role) => content(role), spaceTable);
    expectTable(spacePolicy, (role) => content(role, { locked: true }), { ...spaceTable, edit: '. . . . . . .', merge: '. . . . . . .' });
  });

  it('a guest with a grant acts at the granted role; an outsider of a public space only views', () => {
    expect(spacePolicy.permissions(content(null, { role: 'edit' }))).toEqual(spacePolicy.permissions(content('edit')));
    const visitor = spacePolicy.permissions({ organizationId: 'o', userId: 'me', member: false, orgRole: null, role: 'read' });
    expect(Object.entries(visitor).filter(([, allowed]) => allowed).map(([action]) => action)).toEqual(['view']);
  });

  it('collectionPolicy', () => {
    expectTable(collectionPolicy, (role) => content(role), {
      view: '           Y Y Y Y Y Y .',
      admin: '          Y . . . . . .',
      viewInviteLinks: 'Y . . . . . .',
      create: '         Y Y . . . . .',
    });
  });

  it('changeRequestPolicy: by role, and for the creator of the change request', () => {
    const table = {
      view: '         Y Y Y Y Y Y .',
      create: '       Y Y Y Y . . .',
      edit: '         Y Y Y Y . . .',
      update: '       Y Y Y Y . . .',
      review: '       Y Y Y . . . .',
      merge: '        Y Y Y . . . .',
      requestReview: 'Y Y Y Y . . .',
    };
    expectTable(changeRequestPolicy, (role) => ({ space: content(role), isCreator: false }), table);
    expectTable(changeRequestPolicy, (role) => ({ space: content(role), isCreator: true }), { ...table, update: 'Y Y Y Y Y Y .', requestReview: 'Y Y Y Y Y Y .' });
    expectTable(changeRequestPolicy, (role) => ({ space: content(role, { locked: true }), isCreator: false }), { ...table, create: '. . . . . . .', edit: '. . . . . . .', merge: '. . . . . . .' });
  });

  it('commentPolicy: by role, and for the author of the comment', () => {
    expectTable(commentPolicy, (role) => ({ space: content(role), isAuthor: false }), {
      view: ' Y Y Y Y Y Y .',
      edit: ' . . . . . . .',
      reply: 'Y Y Y Y Y . .',
      delete: 'Y . . . . . .',
    });
    expectTable(commentPolicy, (role) => ({ space: content(role), isAuthor: true }), {
      view: ' Y Y Y Y Y Y .',
      edit: ' Y Y Y Y Y . .',
      reply: 'Y Y Y Y Y . .',
      delete: 'Y Y Y Y Y . .',
    });
  });

  it('pdfPolicy: whoever views the space exports it, visitors of a public space included', () => {
    expectTable(pdfPolicy, (role) => content(role), { export: 'Y Y Y Y Y Y .' });
    expect(pdfPolicy.permissions({ organizationId: 'o', userId: 'me', member: false, orgRole: null, role: 'read' })).toEqual({ export: true });
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
