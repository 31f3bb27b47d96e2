/**
 * The one way a spec's `pattern` is matched, by the generator (samples, value kinds) and by the server (argument
 * validation): in linear time, with RE2 (re2js). JavaScript's own engine backtracks, so a pattern such as
 * `^(\w+\s?)*$` takes seconds on 27 characters and minutes on 35: one caller's argument, or one sample tried at
 * generation, would freeze the process.
 *
 * RE2 has no lookaround and no backreferences: a pattern that needs them has no linear-time matcher here, and the
 * generator leaves it out of the tool's schema (the API still validates it). The ECMAScript syntax is translated
 * to RE2's with re2js' own `translateRegExp`. One difference remains: RE2's `\s` is ASCII whitespace, so a value
 * holding a no-break space is judged by the pattern as if that space were a letter.
 */
import { RE2JS } from 're2js';
import { memoized } from './memo.js';

export interface LinearPattern {
  /** Whether the pattern matches anywhere in `text`, as `RegExp.prototype.test` (patterns are not anchored). */
  test(text: string): boolean;
}

/** The linear-time matcher of an ECMAScript `pattern`, or undefined when it is not valid or needs backtracking. */
export const linearPattern: (pattern: string) => LinearPattern | undefined = memoized(compile, 10_000);

function compile(pattern: string): LinearPattern | undefined {
  try {
    new RegExp(pattern, 'u'); // what JSON Schema accepts: an ECMAScript pattern, read with the `u` flag
    const re2 = RE2JS.compile(RE2JS.translateRegExp(pattern));
    return { test: (text) => re2.test(text) };
  } catch {
    return undefined;
  }
}
