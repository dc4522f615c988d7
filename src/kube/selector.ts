// Label selectors as kubectl accepts them (`a=b`, `a==b`, `a!=b`, `a in (x,y)`,
// `a notin (x)`, `a`, `!a`, comma-separated = AND). Live, the selector string
// is passed to the API server unchanged; this parser validates it up front
// (a usage error beats a 400 from the server) and evaluates it offline
// (`wlx get --from`).

export type Requirement =
  | { key: string; op: 'eq' | 'neq'; value: string }
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'notexists' };

const KEY = /^([A-Za-z0-9][-A-Za-z0-9_.]*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Splits on commas outside parentheses. */
function splitTerms(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of selector) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((t) => t.trim()).filter((t) => t.length > 0);
}

/** Parses a selector; throws an Error naming the bad term. */
export function parseLabelSelector(selector: string): Requirement[] {
  const reqs: Requirement[] = [];
  for (const term of splitTerms(selector)) {
    let m: RegExpMatchArray | null;
    const checkKey = (k: string) => {
      if (!KEY.test(k)) throw new Error(`invalid label key "${k}" in selector "${selector}"`);
      return k;
    };
    const checkValue = (v: string) => {
      if (!VALUE.test(v) || v.length > 63) throw new Error(`invalid label value "${v}" in selector "${selector}"`);
      return v;
    };
    if ((m = term.match(/^(\S+?)\s+(in|notin)\s*\(([^)]*)\)$/))) {
      const values = m[3].split(',').map((v) => checkValue(v.trim()));
      reqs.push({ key: checkKey(m[1]), op: m[2] as 'in' | 'notin', values });
    } else if ((m = term.match(/^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/))) {
      reqs.push({ key: checkKey(m[1]), op: m[2] === '!=' ? 'neq' : 'eq', value: checkValue(m[3]) });
    } else if ((m = term.match(/^!\s*(\S+)$/))) {
      reqs.push({ key: checkKey(m[1]), op: 'notexists' });
    } else if ((m = term.match(/^(\S+)$/))) {
      reqs.push({ key: checkKey(m[1]), op: 'exists' });
    } else {
      throw new Error(`cannot parse "${term}" in selector "${selector}"`);
    }
  }
  return reqs;
}

export function matchesSelector(reqs: Requirement[], labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return reqs.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    switch (r.op) {
      case 'eq':
        return has && l[r.key] === r.value;
      case 'neq':
        return !has || l[r.key] !== r.value;
      case 'in':
        return has && r.values.includes(l[r.key]);
      case 'notin':
        return !has || !r.values.includes(l[r.key]);
      case 'exists':
        return has;
      case 'notexists':
        return !has;
    }
  });
}
