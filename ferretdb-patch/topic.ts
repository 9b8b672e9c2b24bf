// The shape of one concern of the patch (patch.ts assembles them).

/** Replaces the one occurrence of `anchor` in FerretDB's `file` with `replace`. */
export interface Edit {
  file: string;
  anchor: string;
  replace: string;
}

/** A concern's Go files (its folder's file -> where it goes in FerretDB's tree) and its edits. */
export interface PatchTopic {
  added: Record<string, string>;
  edits: Edit[];
}
