import jsep, { type Expression } from 'jsep';

/*
 * Adaptive-content conditions (spec 2.10 `condition`, GitBook's adaptive content): a
 * JavaScript-like expression over the visitor's claims, e.g.
 *   visitor.claims.unsigned.beta == true && visitor.claims.plan != "free"
 *   visitor.claims.products.includes("api")
 * Parsed by jsep; evaluated by the small interpreter below, which knows only literals,
 * `visitor.…` lookups, comparisons, `&&`, `||`, `!`, and `.includes(x)`: nothing a
 * condition says can run code.
 */

export const MAX_CONDITION_LENGTH = 1024;

export type ParsedCondition = { ok: true; ast: Expression } | { ok: false; error: string };

const BINARY = new Set(['==', '===', '!=', '!==', '<', '<=', '>', '>=', '&&', '||']);

function check(node: Expression): string | null {
  switch (node.type) {
    case 'Literal':
      return null;
    case 'Identifier':
      return node.name === 'visitor' ? null : `unknown name "${node.name}" (conditions read visitor.claims)`;
    case 'MemberExpression': {
      const n = node as unknown as { object: Expression; property: Expression; computed: boolean };
      if (n.computed && n.property.type !== 'Literal') return 'computed property names must be literals';
      return check(n.object);
    }
    case 'UnaryExpression': {
      const n = node as unknown as { operator: string; argument: Expression };
      if (n.operator !== '!' && n.operator !== '-') return `operator "${n.operator}" is not allowed`;
      return check(n.argument);
    }
    case 'BinaryExpression':
    case 'LogicalExpression': {
      const n = node as unknown as { operator: string; left: Expression; right: Expression };
      if (!BINARY.has(n.operator)) return `operator "${n.operator}" is not allowed`;
      return check(n.left) ?? check(n.right);
    }
    case 'CallExpression': {
      const n = node as unknown as { callee: Expression; arguments: Expression[] };
      const callee = n.callee as unknown as { type: string; property?: { name?: string }; object?: Expression };
      if (callee.type !== 'MemberExpression' || callee.property?.name !== 'includes' || n.arguments.length !== 1) {
        return 'the only call allowed is .includes(value)';
      }
      return check(callee.object as Expression) ?? check(n.arguments[0]);
    }
    case 'Compound':
      return 'one expression only';
    default:
      return `${node.type} is not allowed in a condition`;
  }
}

/** Parses and checks a condition; `error` says what is wrong. */
export function parseCondition(expression: string): ParsedCondition {
  if (expression.length > MAX_CONDITION_LENGTH) return { ok: false, error: `longer than ${MAX_CONDITION_LENGTH} characters` };
  let ast: Expression;
  try {
    ast = jsep(expression);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const problem = check(ast);
  return problem ? { ok: false, error: problem } : { ok: true, ast };
}

/** The `visitor.claims…` paths a condition reads, as arrays of property names. */
export function claimPaths(ast: Expression): string[][] {
  const paths: string[][] = [];
  const walk = (node: Expression): string[] | null => {
    if (node.type === 'Identifier') return node.name === 'visitor' ? [] : null;
    if (node.type === 'MemberExpression') {
      const n = node as unknown as { object: Expression; property: { name?: string; value?: unknown }; computed: boolean };
      const base = walk(n.object);
      if (!base) return null;
      return [...base, String(n.computed ? n.property.value : n.property.name)];
    }
    if (node.type === 'CallExpression') {
      // `.includes(x)`: the claim is the object the method is called on.
      const n = node as unknown as { callee: { object: Expression }; arguments: Expression[] };
      record(n.callee.object);
      n.arguments.forEach(record);
      return null;
    }
    for (const child of Object.values(node)) {
      if (Array.isArray(child)) child.forEach((c) => c && typeof c === 'object' && 'type' in c && record(c as Expression));
      else if (child && typeof child === 'object' && 'type' in child) record(child as Expression);
    }
    return null;
  };
  const record = (node: Expression) => {
    const path = walk(node);
    if (path && path.length > 0) paths.push(path);
  };
  record(ast);
  // Keep only the longest path of each chain (visitor.claims.a, not also visitor.claims).
  return paths.filter((p) => !paths.some((q) => q.length > p.length && p.every((s, i) => q[i] === s)));
}

function evaluate(node: Expression, visitor: unknown): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as unknown as { value: unknown }).value;
    case 'Identifier':
      return node.name === 'visitor' ? visitor : undefined;
    case 'MemberExpression': {
      const n = node as unknown as { object: Expression; property: { name?: string; value?: unknown }; computed: boolean };
      const target = evaluate(n.object, visitor);
      const key = String(n.computed ? n.property.value : n.property.name);
      if (target === null || typeof target !== 'object' || !Object.prototype.hasOwnProperty.call(target, key)) return undefined;
      return (target as Record<string, unknown>)[key];
    }
    case 'UnaryExpression': {
      const n = node as unknown as { operator: string; argument: Expression };
      const value = evaluate(n.argument, visitor);
      return n.operator === '!' ? !value : -(value as number);
    }
    case 'BinaryExpression':
    case 'LogicalExpression': {
      const n = node as unknown as { operator: string; left: Expression; right: Expression };
      if (n.operator === '&&') return evaluate(n.left, visitor) && evaluate(n.right, visitor);
      if (n.operator === '||') return evaluate(n.left, visitor) || evaluate(n.right, visitor);
      const a = evaluate(n.left, visitor) as number;
      const b = evaluate(n.right, visitor) as number;
      switch (n.operator) {
        case '==':
        case '===':
          return a === b;
        case '!=':
        case '!==':
          return a !== b;
        case '<':
          return a < b;
        case '<=':
          return a <= b;
        case '>':
          return a > b;
        default:
          return a >= b;
      }
    }
    case 'CallExpression': {
      const n = node as unknown as { callee: { object: Expression }; arguments: Expression[] };
      const target = evaluate(n.callee.object, visitor);
      const value = evaluate(n.arguments[0], visitor);
      if (Array.isArray(target)) return target.includes(value);
      if (typeof target === 'string' && typeof value === 'string') return target.includes(value);
      return false;
    }
    default:
      return false;
  }
}

/**
 * Whether a visitor with these claims sees what the condition guards. A condition that
 * does not parse hides (it was validated on write, so this only happens to old data).
 */
export function conditionHolds(expression: string | null | undefined, claims: Record<string, unknown>): boolean {
  if (!expression) return true;
  const parsed = parseCondition(expression);
  if (!parsed.ok) return false;
  return Boolean(evaluate(parsed.ast, { claims }));
}
