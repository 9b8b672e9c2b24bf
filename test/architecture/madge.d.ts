// The part of madge 8's API the import check uses (madge ships no types).
declare module 'madge' {
  interface MadgeResult {
    /** Each file (relative to the base directory) -> the files it imports. */
    obj(): Record<string, string[]>;
    /** Each circle as the files along it. */
    circular(): string[][];
  }
  export default function madge(path: string, config?: { fileExtensions?: string[]; tsConfig?: string }): Promise<MadgeResult>;
}
