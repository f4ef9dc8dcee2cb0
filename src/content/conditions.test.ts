import { describe, expect, it } from 'vitest';
import { claimPaths, conditionHolds, parseCondition } from './conditions.ts';

describe('adaptive-content conditions', () => {
  it('parses what visitors conditions say, and refuses anything else', () => {
    expect(parseCondition('visitor.claims.unsigned.beta == true').ok).toBe(true);
    expect(parseCondition('visitor.claims.products.includes("api") && !visitor.claims.trial').ok).toBe(true);
    for (const bad of ['visitor.claims.a ==', 'process.exit()', 'a = 1', 'visitor.claims.x.map(f)', 'x; y', 'new Date()', 'visitor.claims[foo]']) {
      const parsed = parseCondition(bad);
      expect(parsed.ok, bad).toBe(false);
    }
    expect(parseCondition('x'.repeat(1025))).toEqual({ ok: false, error: 'longer than 1024 characters' });
  });

  it('names the claims a condition reads', () => {
    const parsed = parseCondition('visitor.claims.unsigned.beta && visitor.claims.plan == "pro" || visitor.claims.tags.includes("x")');
    expect(parsed.ok && claimPaths(parsed.ast)).toEqual([
      ['claims', 'unsigned', 'beta'],
      ['claims', 'plan'],
      ['claims', 'tags'],
    ]);
  });

  it('evaluates against a visitor’s claims', () => {
    const claims = { unsigned: { beta: true }, plan: 'pro', tags: ['api'], seats: 5 };
    expect(conditionHolds('visitor.claims.unsigned.beta == true', claims)).toBe(true);
    expect(conditionHolds('visitor.claims.plan != "pro"', claims)).toBe(false);
    expect(conditionHolds('visitor.claims.tags.includes("api") && visitor.claims.seats >= 5', claims)).toBe(true);
    expect(conditionHolds('visitor.claims.missing.deep == 1', claims)).toBe(false);
    expect(conditionHolds('visitor.claims.constructor', claims)).toBe(false);
    expect(conditionHolds(null, {})).toBe(true);
    expect(conditionHolds('broken ==', claims)).toBe(false);
  });
});
