// How long ago, as kubectl and k9s print an AGE: k8s.io/apimachinery's
// duration.HumanDuration, two or three significant figures (`119s`, `2m5s`,
// `100m`, `4h1m`, `30h`, `3d4h`, `400d`, `2y10d`). demo/server/tables.ts keeps
// its own copy (the demo imports nothing from src); test/text/duration.test.ts
// holds both to one table.

/** A duration in ms as kubectl prints it; `<invalid>` when more than a second negative (clock skew up to that is "now"). */
export function humanDuration(ms: number): string {
  // Go's int(d.Seconds()) truncates toward zero.
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}
