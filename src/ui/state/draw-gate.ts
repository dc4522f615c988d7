// Whether a new screen must be drawn. With 100,000 pods and thousands of
// status events a second, most snapshots change only rows that are off screen,
// and every render costs Ink a whole frame: a screen whose signature equals
// the last drawn one is skipped. Under churn the cluster totals in the header
// change with nearly every snapshot, so a change to them alone is drawn at
// most every HEADER_REFRESH_MS (rows, title, flash and panel changes at once).
import type { ScreenSignature } from './screen.js';

export const HEADER_REFRESH_MS = 500;

export type DrawDecision = { kind: 'draw' } | { kind: 'skip' } | { kind: 'later'; waitMs: number };

export class DrawGate {
  private drawn: ScreenSignature | null = null;
  private drawnAt = 0;

  /** A screen with this signature was drawn at `atMs`. */
  markDrawn(signature: ScreenSignature | null, atMs: number): void {
    this.drawn = signature;
    this.drawnAt = atMs;
  }

  /** Whether the screen on display has this signature. */
  isDrawn(signature: ScreenSignature | null): boolean {
    const d = this.drawn;
    return d !== null && signature !== null && d.header === signature.header && d.body === signature.body;
  }

  /** Draw now, skip (nothing visible changed), or later (only the header's figures changed). */
  decide(signature: ScreenSignature | null, atMs: number): DrawDecision {
    const d = this.drawn;
    if (signature === null || d === null) return { kind: 'draw' };
    if (this.isDrawn(signature)) return { kind: 'skip' };
    const waitMs = HEADER_REFRESH_MS - (atMs - this.drawnAt);
    if (waitMs > 0 && signature.body === d.body) return { kind: 'later', waitMs };
    return { kind: 'draw' };
  }
}
