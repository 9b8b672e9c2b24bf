// The shape of one concern of Relay's FerretDB patch (patch.ts assembles them).

/** Replaces the one occurrence of `anchor` in FerretDB's `file` with `replace`. */
export interface Edit {
  file: string;
  anchor: string;
  replace: string;
}

/** A concern's Go files (this folder's file -> where it goes in FerretDB's tree) and its edits. */
export interface PatchTopic {
  added: Record<string, string>;
  edits: Edit[];
}
