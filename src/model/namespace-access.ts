// A namespace the user may not read, told once in the same words by `wlx get`
// and the explorer: "namespace research is not readable by researcher
// (readable: training)", rather than a 403 per kind and an empty list.

/**
 * The user a 403 names, as kube-apiserver's RBAC denial words it:
 * `pods is forbidden: User "researcher" cannot list resource "pods" …`.
 */
export function forbiddenUser(message: string | undefined): string | null {
  const m = /\bUser "([^"]*)" cannot\b/.exec(message ?? '');
  return m && m[1] ? m[1] : null;
}

/** `namespace research is not readable by researcher (readable: training)`. */
export function unreadableNamespaceText(
  namespaces: readonly string[],
  user: string | null,
  readable: readonly string[],
): string {
  const which = namespaces.length === 1 ? `namespace ${namespaces[0]} is` : `namespaces ${namespaces.join(', ')} are`;
  const by = user ? ` by ${user}` : '';
  const others = readable.length ? ` (readable: ${readable.join(', ')})` : '';
  return `${which} not readable${by}${others}`;
}
