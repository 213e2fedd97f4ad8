/**
 * The shape of a query a repository issues: the fields it matches exactly, the sort, the fields it bounds by
 * a range, and the equality filters it leaves to the documents the index finds (`residual`, each with the
 * reason the index need not hold it). Index tests check each shape against the declared indexes.
 */
export interface QueryShape {
  name: string;
  equality: string[];
  sort: Record<string, 1 | -1>;
  range: string[];
  residual: string[];
}

export type IndexKeys = Record<string, 1 | -1>;

/**
 * Whether an index serves a query shape by the equality-sort-range rule: its first keys are exactly the
 * shape's equality fields (any order), the next ones its sort in order (all in the sort's direction or all
 * reversed), and each range field is one of those sort keys or follows them.
 */
export function servesByEsr(index: IndexKeys, shape: QueryShape): boolean {
  const keys = Object.entries(index);
  const eq = new Set(shape.equality);
  const prefix = keys.slice(0, eq.size).map(([k]) => k);
  if (prefix.length !== eq.size || !prefix.every((k) => eq.has(k))) return false;
  const sort = Object.entries(shape.sort);
  const next = keys.slice(eq.size, eq.size + sort.length);
  if (next.length !== sort.length) return false;
  const sameWay = sort.every(([k, dir], i) => next[i]![0] === k && next[i]![1] === dir);
  const reversed = sort.every(([k, dir], i) => next[i]![0] === k && next[i]![1] === -dir);
  if (!sameWay && !reversed) return false;
  const served = keys.slice(eq.size).map(([k]) => k);
  return shape.range.every((field) => served.includes(field));
}
