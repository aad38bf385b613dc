/** "Did you mean" for a mistyped tool name: the closest known names by edit distance. */

export function suggestNames(wanted: string, known: string[], max = 3): string[] {
  const target = wanted.toLowerCase();
  const limit = Math.max(2, Math.floor(target.length / 3));
  return [...new Set(known)]
    .map((name) => ({ name, distance: editDistance(target, name.toLowerCase()) }))
    .filter((c) => c.distance <= limit || c.name.toLowerCase().includes(target))
    .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((c) => c.name);
}

/** Levenshtein distance, one row at a time. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}
