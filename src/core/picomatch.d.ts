/**
 * The part of picomatch 4 this service uses (the package ships no types, and @types/picomatch is not a dependency):
 * https://github.com/micromatch/picomatch#api
 */
declare module 'picomatch' {
  interface PicomatchOptions {
    dot?: boolean;
    nocase?: boolean;
    noextglob?: boolean;
    nonegate?: boolean;
    strictBrackets?: boolean;
    maxLength?: number;
  }
  type Matcher = (path: string) => boolean;
  interface Picomatch {
    (patterns: string | readonly string[], options?: PicomatchOptions): Matcher;
    makeRe(pattern: string, options?: PicomatchOptions): RegExp;
  }
  const picomatch: Picomatch;
  export default picomatch;
}
