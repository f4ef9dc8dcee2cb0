import { GitBookAPI, GitBookAPIError, MemberRole, TeamMemberRole } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import { createMember, createOrganization, type TestOrganization, type TestUser } from './factories.ts';

/*
 * GitBook's official client, unchanged but for `endpoint`, drives the foundation's
 * operations against a listening Quire.
 */
describe("GitBook's official client", () => {
  let t: TestApp;
  let org: TestOrganization;
  let editor: TestUser;
  let api: GitBookAPI;

  beforeAll(async () => {
    t = await createTestApp();
    org = await createOrganization(t, { title: 'Client Org', emailDomains: ['client.test'] });
    editor = await createMember(t, org.id, 'edit', { displayName: 'Eddie Editor' });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    api = new GitBookAPI({ endpoint: address, authToken: org.admin.token });
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads API information, the user and the organizations', async () => {
    const info = await api.getApiInformation();
    expect(info.data.version).toMatch(/^\d+\.\d+\.\d+/);

    const me = await api.user.getAuthenticatedUser();
    expect(me.data).toMatchObject({ object: 'user', id: org.admin.id });

    const someone = await api.users.getUserById(editor.id);
    expect(someone.data.displayName).toBe('Eddie Editor');

    const orgs = await api.orgs.listOrganizationsForAuthenticatedUser();
    expect(orgs.data.items.map((o) => o.id)).toEqual([org.id]);

    const one = await api.orgs.getOrganizationById(org.id);
    expect(one.data.title).toBe('Client Org');

    const updated = await api.orgs.updateOrganizationById(org.id, { title: 'Client Org Renamed', ai: true });
    expect(updated.data).toMatchObject({ title: 'Client Org Renamed', ai: true });

    const byDomain = await api.emailDomains.getOrganizationsForEmailDomain('client.test');
    expect(byDomain.data.organizations.map((o) => o.id)).toEqual([org.id]);
  });

  it('manages members and teams', async () => {
    const members = await api.orgs.listMembersInOrganizationById(org.id, { limit: 10, order: 'asc' });
    expect(members.data.count).toBe(2);
    expect(members.data.items.map((m) => m.id)).toEqual([org.admin.id, editor.id]);

    const member = await api.orgs.getMemberInOrganizationById(org.id, editor.id);
    expect(member.data.role).toBe('edit');
    const promoted = await api.orgs.updateMemberInOrganizationById(org.id, editor.id, { role: MemberRole.Review });
    expect(promoted.data.role).toBe('review');

    const team = await api.orgs.createOrganizationTeam(org.id, { title: 'Writers', members: [editor.id] });
    expect(team.status).toBe(201);
    expect(team.data).toMatchObject({ object: 'team', title: 'Writers', members: 1 });

    await api.orgs.updateMembersInOrganizationTeam(org.id, team.data.id, { add: [org.admin.id], memberships: { [editor.id]: { role: TeamMemberRole.Owner } } });
    const read = await api.orgs.getTeamInOrganizationById(org.id, team.data.id);
    expect(read.data.members).toBe(2);

    const teamMembers = await api.orgs.listTeamMembersInOrganizationById(org.id, team.data.id);
    expect(teamMembers.data.items.map((m) => [m.organization.id, m.team.role]).sort()).toEqual(
      [[org.admin.id, 'member'], [editor.id, 'owner']].sort(),
    );

    const teams = await api.orgs.listTeamsInOrganizationById(org.id, { title: 'writ' });
    expect(teams.data.items.map((x) => x.id)).toEqual([team.data.id]);

    const ping = await api.orgs.updateOrganizationMemberLastSeenAt(org.id);
    expect(typeof ping.data.gitbookVisitorClaims).toBe('string');
  });

  it('brings people in with invites', async () => {
    const link = await api.orgs.createOrganizationInvite(org.id, { role: MemberRole.Comment });
    expect(link.status).toBe(201);
    expect(link.data).toMatchObject({ object: 'invite', role: 'comment' });

    await api.orgs.inviteUsersToOrganization(org.id, { emails: ['newcomer@client.test'], role: MemberRole.Read });
    const members = await api.orgs.listMembersInOrganizationById(org.id, { search: 'newcomer' });
    expect(members.data.items).toHaveLength(1);
    expect(members.data.items[0]).toMatchObject({ role: 'read', user: { email: 'newcomer@client.test' } });
  });

  it("surfaces Quire's errors as GitBookAPIError with the message", async () => {
    const outsider = new GitBookAPI({ endpoint: api.endpoint, authToken: 'qr_not_a_token' });
    await expect(outsider.user.getAuthenticatedUser()).rejects.toBeInstanceOf(GitBookAPIError);
    const error = await api.orgs.getOrganizationById('nope').catch((e: GitBookAPIError) => e);
    expect(error).toBeInstanceOf(GitBookAPIError);
    expect((error as GitBookAPIError).code).toBe(404);
    expect((error as GitBookAPIError).message).toContain('Organization not found');
  });
});
