/**
 * compromise (the part-of-speech tagger the rule planner reads clauses with), loaded on first use.
 *
 * Imported at the top of the planner's modules, it was loaded by every process and test file that composes the
 * service, most of which never plan a sentence: a `qa keys create`, a webhook receiver, a replay worker. Its ES module
 * build is some hundred files that build the lexicon as they load, about a second of CPU each time. The one-file
 * CommonJS build (the package's `require` export), loaded here when a clause is first read, is the same tagger.
 */
import { createRequire } from 'node:module';
import type nlpModule from 'compromise';

type Nlp = typeof nlpModule;

let loaded: Nlp | undefined;

/** compromise's `nlp(text)`: the document to read the text's terms, nouns and verbs from. */
export function nlp(text: string): ReturnType<Nlp> {
  loaded ??= createRequire(import.meta.url)('compromise') as Nlp;
  return loaded(text);
}
