// Children of a page's items, read with one `$in`, grouped by their parent's id in the order they
// came (a gateway delivery's outcomes, a webhook delivery's attempts): one query a page, not one
// per item, on any database.
export function byParent<T>(children: T[], parentOf: (child: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const child of children) {
    const group = groups.get(parentOf(child));
    if (group) group.push(child);
    else groups.set(parentOf(child), [child]);
  }
  return groups;
}
