import type { RoleName } from '../db/types.ts';
import { forbidden } from '../errors.ts';

/*
 * Authorization machinery. Rules live in each module's *.policy.ts as small named
 * predicates; the same rules both decide operations (authorize) and fill the
 * `permissions` objects of responses (permissions), so the two cannot disagree.
 */

/** Organization roles from least to most powerful (GitBook: reader < ... < admin). */
export const ROLES: readonly RoleName[] = ['read', 'comment', 'edit', 'review', 'create', 'admin'];

/**
 * Each role's rank (1 read .. 6 admin; 0 stands for no role): the one table every
 * comparison of roles reads, in TypeScript here and in SQL (src/access/access.repository.ts).
 */
export const ROLE_RANK: Readonly<Record<RoleName, number>> = Object.fromEntries(ROLES.map((role, i) => [role, i + 1])) as Record<RoleName, number>;
const RANK = ROLE_RANK;

/** True when `role` grants at least what `minimum` grants; guests (null) hold no role. */
export function atLeast(role: RoleName | null | undefined, minimum: RoleName): boolean {
  return role != null && RANK[role] >= RANK[minimum];
}

/** The most powerful of several roles, or null when none is given. */
export function highestRole(...roles: (RoleName | null | undefined)[]): RoleName | null {
  let best: RoleName | null = null;
  for (const role of roles) if (role && (!best || RANK[role] > RANK[best])) best = role;
  return best;
}

export type Rule<Subject> = (subject: Subject) => boolean;

export interface Policy<Subject, Action extends string> {
  can(action: Action, subject: Subject): boolean;
  /** Throws 403 unless the rule for `action` allows it. */
  authorize(action: Action, subject: Subject, message?: string): void;
  /** Every rule evaluated, for a response's `permissions` object. */
  permissions(subject: Subject): Record<Action, boolean>;
}

/** Builds a policy from named rules. */
export function definePolicy<Subject, Action extends string>(
  rules: Record<Action, Rule<Subject>>,
): Policy<Subject, Action> {
  const actions = Object.keys(rules) as Action[];
  return {
    can: (action, subject) => rules[action](subject),
    authorize(action, subject, message) {
      if (!rules[action](subject)) throw forbidden(message ?? `You are not allowed to ${action} here`);
    },
    permissions(subject) {
      const result = {} as Record<Action, boolean>;
      for (const action of actions) result[action] = rules[action](subject);
      return result;
    },
  };
}
