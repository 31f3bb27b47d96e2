/**
 * Reading resources out of path templates, for browsing groups and the hybrid core: `/repos/{owner}/{repo}/issues`
 * is the `issues` collection of a repository; `/repos/{owner}/{repo}/issues/{issue_number}` one of its items.
 */

export interface PathSegment {
  text: string;
  /** A `{template}` segment (or one that holds a template, like `{name}.json`). */
  param: boolean;
}

/** API version markers (`v1`, `v2beta1`, `2022-11-28`) say nothing about what an operation does. */
const VERSION_SEGMENT = /^(v\d+([a-z]+\d*)?|\d[\d.-]*)$/i;

/** Segments of each path seen, for the several stages that read the same paths (a large API has a thousand). */
const segmentsOf = new Map<string, readonly PathSegment[]>();

export function pathSegments(path: string): readonly PathSegment[] {
  let segments = segmentsOf.get(path);
  if (!segments) {
    segments = path
      .split('/')
      .filter(Boolean)
      .map((text) => ({ text, param: text.includes('{') }))
      .filter((s) => s.param || !VERSION_SEGMENT.test(s.text));
    segmentsOf.set(path, segments);
  }
  return segments;
}

/** The literal (non-template) segments of a path, versions left out. */
export function literalSegments(path: string): string[] {
  return pathSegments(path)
    .filter((s) => !s.param)
    .map((s) => s.text);
}
