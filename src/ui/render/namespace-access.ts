// What an empty namespaced view says when the namespace in scope is one the
// model does not read: "namespace research is not readable by researcher
// (readable: training)" — the words of `wlx get -n research` — rather than
// "nothing to show".
import type { ModelSnapshot, NamespaceReadable } from '../../model/types.js';
import { unreadableNamespaceText } from '../../model/namespace-access.js';
import { sanitise } from '../../text/sanitise.js';

type Access = Pick<ModelSnapshot, 'access' | 'accessNotice'>;

/**
 * Whether the model cannot answer for `namespace`: it reads other namespaces
 * only because cluster-wide lists were forbidden, so the namespace must be asked.
 */
export function namespaceNeedsAsking(snapshot: Access, namespace: string | null): namespace is string {
  const access = snapshot.access;
  if (namespace === null || !access || !snapshot.accessNotice) return false;
  if (access.unreadable?.includes(namespace)) return false;
  return access.namespaces.length > 0 && !access.namespaces.includes(namespace);
}

/**
 * Whether the model reads `namespace`'s objects, so that a count of them means
 * something. `started`: the `-n` namespaces wlx was started with (empty: all).
 */
export function namespaceIsRead(snapshot: Access, namespace: string, started: readonly string[]): boolean {
  if (snapshot.access?.unreadable?.includes(namespace)) return false;
  if (namespaceNeedsAsking(snapshot, namespace)) return false;
  return !started.length || started.includes(namespace);
}

/**
 * The text for an empty view scoped to `namespace`, or null when the model
 * reads it (an empty namespace is then simply empty). `started`: the `-n`
 * namespaces wlx was started with (empty: all).
 */
export function namespaceViewText(
  snapshot: Access,
  namespace: string | null,
  started: readonly string[],
  asked: ({ namespace: string } & NamespaceReadable) | null,
): string | null {
  const access = snapshot.access;
  if (namespace === null || !access) return null;
  const user = access.user ?? null;
  if (access.unreadable?.includes(namespace))
    return sanitise(unreadableNamespaceText([namespace], user, access.readable ?? []));
  if (namespaceNeedsAsking(snapshot, namespace)) {
    const answer = asked?.namespace === namespace ? asked : null;
    if (!answer) return `checking whether namespace ${sanitise(namespace)} is readable…`;
    if (answer.readable === false)
      return sanitise(unreadableNamespaceText([namespace], answer.user ?? user, access.namespaces));
    const read = access.namespaces.join(', ');
    return sanitise(
      answer.readable
        ? `namespace ${namespace} is readable, but wlx reads only ${read} (cluster-wide lists are forbidden): start it with -n ${namespace}`
        : `namespace ${namespace} is not read: wlx reads only ${read} (cluster-wide lists are forbidden)`,
    );
  }
  if (started.length && !started.includes(namespace))
    return sanitise(
      `namespace ${namespace} is outside this view: wlx was started with ${started.map((n) => `-n ${n}`).join(' ')}`,
    );
  return null;
}
