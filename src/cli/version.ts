// wlx's version, read from the package.json it ships with.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function packageVersion(): string {
  const path = fileURLToPath(new URL('../../../package.json', import.meta.url));
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}
