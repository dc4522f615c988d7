// Kubernetes resource quantities ("8", 8, "500m", "1Ki", "2e3") as numbers.
// GPU counts are integers in practice, but a definition's template may hold any
// quantity string, and a bad one must read as 0 rather than NaN in a rollup.

const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  Pi: 1024 ** 5,
  Ei: 1024 ** 6,
};

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/;

/** A quantity as a number; 0 for anything that is not a valid quantity. */
export function parseQuantity(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? value : 0;
  if (typeof value !== 'string') return 0;
  const m = QUANTITY.exec(value.trim());
  if (!m) return 0;
  const n = Number(m[1]) * (SUFFIX[m[2] ?? ''] ?? 1);
  return Number.isFinite(n) ? n : 0;
}
