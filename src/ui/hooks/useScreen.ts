// The screen to draw (src/ui/state/screen.ts) and when to draw it: snapshots
// arrive coalesced (useModelSnapshot) and are drawn only when the draw gate
// says the screen changed; the clock ticks once a second for ages and
// highlights, drawn likewise only when a visible one changed. The driver reads
// the clock (Date.now unless a test gives its own) at each snapshot and tick;
// screens get that time as their nowMs.
import { useEffect, useReducer, useState } from 'react';
import type { ModelSnapshot, NodePodEntry } from '../../model/types.js';
import type { ModelSource } from '../../model/source.js';
import { DrawGate } from '../state/draw-gate.js';
import type { WorkCounters } from '../render/row-cache.js';
import { ScreenModel, type Screen, type ScreenSize } from '../state/screen.js';
import type { ViewStore } from '../state/view-store.js';
import { currentFrame, type UiState } from '../state/ui-state.js';
import { frameCluster } from '../state/fleet.js';
import { useModelSnapshot } from './useModelSnapshot.js';
import type { UserBindings } from '../user-config.js';
import type { MapPalette } from '../skin.js';

/** One App's screen model, draw gate and their timers; long-lived callbacks read its latest inputs. */
export class ScreenDriver {
  readonly model: ScreenModel;
  private readonly gate = new DrawGate();
  private headerTimer: NodeJS.Timeout | null = null;
  private snapshot: ModelSnapshot | null = null;
  private source: ModelSource | null = null;
  private size: ScreenSize = { columns: 80, rows: 24 };
  /** The time of the screens: read from the clock when a snapshot arrives and at each tick. */
  now: number;

  constructor(
    model: ScreenModel,
    private readonly store: ViewStore,
    private readonly redraw: () => void,
    private readonly clock: () => number = Date.now,
  ) {
    this.model = model;
    this.now = clock();
  }

  /** The inputs of the render in progress. */
  update(snapshot: ModelSnapshot, size: ScreenSize, source: ModelSource): void {
    this.snapshot = snapshot;
    this.size = size;
    this.source = source;
  }

  /** Reads the clock: the screens from now on are at this time. */
  tick(): number {
    this.now = this.clock();
    return this.now;
  }

  /** The newest snapshot the gate or a render has seen. */
  latestSnapshot(): ModelSnapshot {
    return this.snapshot!;
  }

  /** The pods on a node (the model source's index; a fleet's: that of the current view's cluster). */
  nodePods(node: string): NodePodEntry[] {
    const state = this.store.getState();
    const cluster = frameCluster(state, currentFrame(state));
    const source = (cluster !== null ? this.source!.member?.(cluster) : undefined) ?? this.source!;
    return source.getNodePods(node);
  }

  /** The screen of the live view state and the newest snapshot (what keys act on). */
  live(): Screen {
    return this.model.screen(this.snapshot!, this.store.getState(), this.now, this.size, this.source!);
  }

  /** The snapshot is the newest; whether its screen now must be drawn now. */
  shouldDraw(snapshot: ModelSnapshot): boolean {
    this.snapshot = snapshot;
    const nowMs = this.tick();
    const screen = this.model.screen(snapshot, this.store.getState(), nowMs, this.size, this.source!);
    const decision = this.gate.decide(screen.signature, nowMs);
    if (decision.kind === 'later') {
      // Only the header's figures changed: drawn with the next frame, at the latest in waitMs.
      this.headerTimer ??= setTimeout(() => {
        this.headerTimer = null;
        if (!this.gate.isDrawn(this.live().signature)) this.redraw();
      }, decision.waitMs);
    }
    return decision.kind === 'draw';
  }

  /** The render drew this screen. */
  drawn(screen: Screen): void {
    this.gate.markDrawn(screen.signature, this.now);
  }

  /** Ticks once a second; re-renders when the tick changes something visible. */
  startClock(): () => void {
    const timer = setInterval(() => {
      if (this.snapshot && this.shouldDraw(this.snapshot)) this.redraw();
    }, 1000);
    return () => {
      clearInterval(timer);
      if (this.headerTimer) clearTimeout(this.headerTimer);
      this.headerTimer = null;
    };
  }
}

export interface ScreenOptions {
  frameIntervalMs: number;
  highlightMs?: number;
  /** Test seam: counts the work of this App's caches. */
  work?: WorkCounters;
  /** Test seam: the clock; default Date.now. */
  clock?: () => number;
  noColor?: boolean;
  topologyKeys?: readonly string[];
  headless?: boolean;
  contexts?: readonly string[];
  bindings?: UserBindings;
  mapPalette?: Partial<MapPalette>;
}

export function useScreen(
  source: ModelSource,
  store: ViewStore,
  state: UiState,
  size: ScreenSize,
  options: ScreenOptions,
): { screen: Screen; snapshot: ModelSnapshot; driver: ScreenDriver } {
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const [driver] = useState(
    () =>
      new ScreenDriver(
        new ScreenModel({
          highlightMs: options.highlightMs,
          counters: options.work,
          noColor: options.noColor,
          topologyKeys: options.topologyKeys,
          headless: options.headless,
          contexts: options.contexts,
          bindings: options.bindings,
          mapPalette: options.mapPalette,
        }),
        store,
        redraw,
        options.clock,
      ),
  );
  const snapshot = useModelSnapshot(source, options.frameIntervalMs, (next) => driver.shouldDraw(next), options.clock);
  driver.update(snapshot, size, source);
  useEffect(() => driver.startClock(), [driver]);
  const screen = driver.model.screen(snapshot, state, driver.now, size, source);
  driver.drawn(screen);
  return { screen, snapshot, driver };
}
