// How every command prints its result: JSON on stdout, for scripting.
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
