/**
 * `compute` remembered by its string argument, for the few thousand texts a generation or a stream of searches
 * comes back to (stems, patterns, argument docs). The memory is bounded for a long-lived process: when it
 * holds `max` entries it starts again empty.
 */
export function memoized<T>(compute: (key: string) => T, max = 50_000): (key: string) => T {
  const remembered = new Map<string, T>();
  return (key) => {
    // One lookup for a remembered value; `has` only tells a remembered undefined from none.
    const known = remembered.get(key);
    if (known !== undefined || remembered.has(key)) return known as T;
    const value = compute(key);
    if (remembered.size >= max) remembered.clear();
    remembered.set(key, value);
    return value;
  };
}
