// The benches' command-line flags, each given as `--name value`.

/** The word after `--name`, or undefined when the flag is not given. */
export function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
}
