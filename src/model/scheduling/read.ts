// Readers of the queue and gang objects' fields: plain objects as the API
// server sends them, read leniently (absent or mistyped is null, never a throw).
import type { KubeObject, TimedCondition } from '../types.js';

export type Obj = Record<string, unknown>;

export function obj(v: unknown): Obj {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

export function list(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map(obj) : [];
}

export function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

export function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function groupOf(o: KubeObject): string {
  const av = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  return av.includes('/') ? av.slice(0, av.indexOf('/')) : '';
}

export function conditionsOf(o: KubeObject): TimedCondition[] {
  return list(obj(o.status).conditions).map((c) => ({
    type: str(c.type) ?? '',
    status: str(c.status) ?? '',
    reason: str(c.reason),
    message: str(c.message),
    at: str(c.lastTransitionTime),
  }));
}

export function condition(o: KubeObject, type: string): TimedCondition | undefined {
  return conditionsOf(o).find((c) => c.type === type);
}

export const isTrue = (c: TimedCondition | undefined) => c?.status === 'True';
