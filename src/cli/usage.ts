// Usage errors: exit status 2 with a one-line hint (see main.ts).
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs, with its errors turned into UsageErrors naming `hint`. */
export function parseCommandArgs<T extends Options>(args: string[], options: T, hint: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0] ?? 'bad arguments', hint);
  }
}
