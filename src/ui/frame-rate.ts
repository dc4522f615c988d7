// Ink draws at most MAX_FPS frames a second. Under churn frames follow the
// engine's flushes (~12 a second) and keys, so the cap rarely merges frames;
// what it decides is how long a key that lands just after a frame waits for
// the throttle: up to 1000 / MAX_FPS ms. At 30 that was up to 33 ms of a
// ~25 ms key → frame (measured in test/bench/README.md, "Run of 2026-12-06, 60 fps").
export const MAX_FPS = 60;
