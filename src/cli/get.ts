// Placeholder until its issue lands; replaced by the real command.
export async function runGet(_args: string[]): Promise<number> {
  process.stderr.write('wlx: this command is not built yet\n');
  return 1;
}
