// A workload's generic status, evaluated exactly as Workload Map does: the
// matchers of one status are OR'd, the fields of one matcher AND'd; byPhase
// compares the phase; byConditions needs every listed condition type present
// (status and reason compared only when the matcher gives them); byExpression
// compares the first output of `(expr) | tostring` with expectedResult; an
// empty matcher matches. Several statuses can hold at once; none is Undefined.
import type { StatusName, ConditionMatcher } from '../definitions/types.js';
import type { KubeObject } from './types.js';
import { firstOf, runExpr, ExprError, describeFailure } from './expr.js';
import type { StatusPlan, MatcherPlan } from './plan.js';

export interface StatusResult {
  /** In severity order (Failed first); ['Undefined'] when nothing matched. */
  status: StatusName[];
  statusMessage: string | null;
  errors: string[];
}

interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime: string;
}

function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function readConditions(plan: NonNullable<StatusPlan['conditions']>, workload: KubeObject): Condition[] {
  // The path usually yields the array; a path written as a stream (`.status.conditions[]`) works too.
  const out = runExpr(plan.expr, workload);
  const items: unknown[] =
    out.length === 1 && Array.isArray(out[0])
      ? (out[0] as unknown[])
      : out.flatMap((v) => (Array.isArray(v) ? v : [v]));
  const conditions: Condition[] = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    const c = item as Record<string, unknown>;
    conditions.push({
      type: text(c[plan.typeField]),
      status: text(c[plan.statusField]),
      // Upstream reads the reason only when reasonFieldName is set.
      reason: plan.reasonField ? text(c[plan.reasonField]) : '',
      message: text(c[plan.messageField]),
      lastTransitionTime: text(c.lastTransitionTime),
    });
  }
  return conditions;
}

function matchConditions(wanted: ConditionMatcher[], conditions: Condition[]): Condition[] | null {
  const matched: Condition[] = [];
  for (const w of wanted) {
    const c = conditions.find((x) => x.type === w.type);
    if (!c) return null;
    if (w.status !== undefined && w.status !== null && c.status !== w.status) return null;
    if (w.reason !== undefined && w.reason !== null && c.reason !== w.reason) return null;
    matched.push(c);
  }
  return matched;
}

export function evaluateStatus(plan: StatusPlan | null, workload: KubeObject, subject: string): StatusResult {
  if (!plan) return { status: ['Undefined'], statusMessage: null, errors: [] };
  const errors: string[] = [];
  const fail = (err: unknown) => {
    if (err instanceof ExprError) errors.push(describeFailure(subject, err.expr, err.message));
    else errors.push(`${subject}: status: ${err instanceof Error ? err.message : String(err)}`);
  };
  let conditions: Condition[] = [];
  if (plan.conditions) {
    try {
      conditions = readConditions(plan.conditions, workload);
    } catch (err) {
      fail(err);
    }
  }
  let phase: string | undefined;
  if (plan.phase) {
    try {
      const v = firstOf(plan.phase, workload);
      phase = v === undefined || v === null ? undefined : text(v);
    } catch (err) {
      fail(err);
    }
  }
  const matches = (m: MatcherPlan): Condition[] | null => {
    if (m.byPhase !== null && phase !== m.byPhase) return null;
    let used: Condition[] = [];
    if (m.byConditions) {
      const got = matchConditions(m.byConditions, conditions);
      if (!got) return null;
      used = got;
    }
    if (m.byExpression) {
      try {
        const v = firstOf(m.byExpression.expr, workload);
        if (v === undefined || text(v) !== m.byExpression.expected) return null;
      } catch (err) {
        fail(err);
        return null;
      }
    }
    return used;
  };
  const status: StatusName[] = [];
  const drivers = new Map<StatusName, Condition[]>();
  for (const mapping of plan.mappings) {
    let hit = false;
    const used: Condition[] = [];
    // Evaluate every matcher (not just the first hit) so each expression's
    // errors are reported, and all driving conditions are known.
    for (const m of mapping.matchers) {
      const got = matches(m);
      if (got) {
        hit = true;
        used.push(...got);
      }
    }
    if (hit) {
      status.push(mapping.status);
      drivers.set(mapping.status, used);
    }
  }
  if (status.length === 0) status.push('Undefined');
  return { status, statusMessage: pickMessage(status, drivers, conditions), errors };
}

/**
 * The message explaining the most severe status: the message of a condition
 * that made it match; for Failed/Degraded/Undefined without one, the newest
 * condition that says something and is not plainly healthy.
 */
function pickMessage(
  status: StatusName[],
  drivers: Map<StatusName, Condition[]>,
  conditions: Condition[],
): string | null {
  const top = status[0];
  const fromDriver = (drivers.get(top) ?? []).find((c) => c.message !== '');
  if (fromDriver) return fromDriver.message;
  if (top === 'Failed' || top === 'Degraded' || top === 'Undefined') {
    const candidates = conditions.filter((c) => c.message !== '');
    candidates.sort((a, b) => (Date.parse(b.lastTransitionTime) || 0) - (Date.parse(a.lastTransitionTime) || 0));
    const failing =
      candidates.find((c) => /fail|error|degrad/i.test(c.type) && c.status === 'True') ??
      candidates.find((c) => c.status === 'False');
    if (failing) return failing.message;
  }
  return null;
}
