// The benches' command-line flags, each given as `--name value`.

/** The word after `--name`, or undefined when the flag is not given. */
export function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
}

/** `--name`'s value, or the fallback when the flag is not given. */
export function stringFlag(name: string, fallback: string): string {
  return process.argv.includes(`--${name}`) ? flag(name)! : fallback;
}

/** `--name`'s value as a number, or the fallback when the flag is not given. */
export function numberFlag(name: string, fallback: number): number {
  return process.argv.includes(`--${name}`) ? Number(flag(name)) : fallback;
}
