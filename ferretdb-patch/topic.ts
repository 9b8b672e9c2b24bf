// The shape of one concern of the patch (patch.ts assembles them).

/** Replaces the one occurrence of `anchor` in FerretDB's `file` with `replace`. */
export interface Edit {
  file: string;
  anchor: string;
  replace: string;
}

/** A concern's Go files (its folder's file -> where it goes in FerretDB's tree) and its edits. */
export interface PatchTopic {
  /** Go modules copied into FerretDB's tree before the edits (directory -> module@version), for edits to a dependency. */
  modules?: Record<string, string>;
  added: Record<string, string>;
  edits: Edit[];
}
