// Which workloads changed recently, so their rows can flash briefly (k9s
// shows updated rows the same way). Fed with each snapshot's
// changedWorkloads; a uid stays highlighted for `durationMs` after its last change.

export class ChangeHighlights {
  private readonly until = new Map<string, number>();
  private lastVersion: number | null = null;

  constructor(readonly durationMs = 1500) {}

  /** Record a snapshot's changes (once per snapshot version). */
  note(version: number, changedUids: readonly string[], nowMs: number): void {
    if (version === this.lastVersion) return;
    // The first snapshot is the initial state, not a change.
    const initial = this.lastVersion === null;
    this.lastVersion = version;
    if (initial) return;
    for (const uid of changedUids) this.until.set(uid, nowMs + this.durationMs);
  }

  /** The uids highlighted at `nowMs` (expired ones are forgotten). */
  active(nowMs: number): Set<string> {
    const set = new Set<string>();
    for (const [uid, until] of this.until) {
      if (until > nowMs) set.add(uid);
      else this.until.delete(uid);
    }
    return set;
  }
}
