// /livez, /readyz and /healthz as kube-apiserver answers them: "ok" in plain
// text, the list of checks with `?verbose`, one check at `/livez/<check>`,
// `?exclude=<check>` to skip one, and 404 for an unknown check.

const COMMON_CHECKS = [
  'ping',
  'log',
  'etcd',
  'poststarthook/start-apiserver-admission-initializer',
  'poststarthook/generic-apiserver-start-informers',
  'poststarthook/start-apiextensions-informers',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
  'poststarthook/rbac/bootstrap-roles',
];

const CHECKS: Record<string, string[]> = {
  livez: COMMON_CHECKS,
  healthz: COMMON_CHECKS,
  readyz: [...COMMON_CHECKS.slice(0, 3), 'etcd-readiness', 'informer-sync', ...COMMON_CHECKS.slice(3), 'shutdown'],
};

export interface HealthAnswer {
  code: number;
  body: string;
}

/** The answer for `/livez`, `/readyz`, `/healthz` or one of their checks; undefined for any other path. */
export function healthAnswer(path: string, params: URLSearchParams): HealthAnswer | undefined {
  const [, endpoint, ...rest] = path.split('/');
  const checks = CHECKS[endpoint ?? ''];
  if (!checks) return undefined;
  if (rest.length) {
    const check = rest.join('/');
    return checks.includes(check) ? { code: 200, body: 'ok' } : { code: 404, body: '404 page not found\n' };
  }
  const excluded = new Set(params.getAll('exclude'));
  if (!params.has('verbose')) return { code: 200, body: 'ok' };
  const lines = checks.map((c) => (excluded.has(c) ? `[+]${c} excluded: ok` : `[+]${c} ok`));
  return { code: 200, body: `${lines.join('\n')}\n${endpoint} check passed\n` };
}
