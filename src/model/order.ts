// Sorting names the way people read them.

/**
 * Natural order (`worker-2` before `worker-10`), code-unit order otherwise.
 * Hand-written: Intl.Collator's numeric mode dominated rebuild profiles.
 */
export function naturalCompare(a: string, b: string): number {
  const la = a.length;
  const lb = b.length;
  let i = 0;
  let j = 0;
  while (i < la && j < lb) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    const da = ca >= 48 && ca <= 57;
    const db = cb >= 48 && cb <= 57;
    if (da && db) {
      // Compare the digit runs as numbers: skip leading zeros, then by length, then digit by digit.
      let si = i;
      let sj = j;
      while (si < la && a.charCodeAt(si) === 48) si++;
      while (sj < lb && b.charCodeAt(sj) === 48) sj++;
      let ei = si;
      let ej = sj;
      while (ei < la && a.charCodeAt(ei) >= 48 && a.charCodeAt(ei) <= 57) ei++;
      while (ej < lb && b.charCodeAt(ej) >= 48 && b.charCodeAt(ej) <= 57) ej++;
      const lenA = ei - si;
      const lenB = ej - sj;
      if (lenA !== lenB) return lenA - lenB;
      for (let k = 0; k < lenA; k++) {
        const d = a.charCodeAt(si + k) - b.charCodeAt(sj + k);
        if (d !== 0) return d;
      }
      // Equal values: fewer leading zeros first.
      const z = si - i - (sj - j);
      if (z !== 0) return z;
      i = ei;
      j = ej;
      continue;
    }
    if (ca !== cb) return ca - cb;
    i++;
    j++;
  }
  return la - i - (lb - j);
}

/**
 * A key whose plain (code unit) order is natural order for names whose digit
 * runs are shorter than 16 digits: each digit run is zero-padded.
 */
export function naturalSortKey(name: string): string {
  return name.replace(/\d+/g, (run) => (run.length >= 16 ? run : run.padStart(16, '0')));
}
