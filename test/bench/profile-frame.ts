// How the profile summaries (heap-profile-summary.ts, key-profile-summary.ts) name a function:
// its name, the last two parts of its file's path and its 1-based line.

export interface ProfileCallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

export function frameName(f: ProfileCallFrame): string {
  return `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
}
