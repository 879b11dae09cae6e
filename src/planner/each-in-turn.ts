/**
 * One action on each of several alike elements in turn, with what each must show, said once:
 * "hover over each of the three user pictures in turn and check the caption under it: the first should say 'A',
 * the second 'B' and the third 'C'". Written out as one sentence per element before the task is cut into clauses:
 * "hover over the first user picture, then check that the page shows 'A'. Hover over the second …". The elements are
 * then found by their place among those alike (`nth`); the list must count them from the first, one each, and as
 * many as the task said, or the sentence is left as written (and asked about).
 */
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];
const NUMBERS: Readonly<Record<string, number>> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const QUOTED = String.raw`(?:"[^"]*"|'[^']*')`;
const EACH = new RegExp(
  String.raw`\b(hover over|hover on|hover|click on|click|tap|press|open|select)\s+each\s+of\s+the\s+(?:(\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+)?([\w -]+?)\s+in\s+turn,?\s+and\s+(?:check|verify|read|look at|make sure of)\s+[^:"'.!?]+:\s*((?:[^"'.!?]|${QUOTED})+)`,
  'gi',
);
const EXPECTED = new RegExp(String.raw`\bthe\s+(${ORDINALS.join('|')})(?:\s+one)?\s*(?:,\s*)?(?:(?:should|must|will)\s+(?:say|show|read|be)|says|shows|reads|is)?\s*(${QUOTED})`, 'gi');

export function expandEachInTurn(task: string): string {
  return task.replace(EACH, (whole: string, verb: string, howMany: string | undefined, things: string, list: string) => {
    const expected = [...list.matchAll(EXPECTED)].map((match) => ({ at: ORDINALS.indexOf(match[1]!.toLowerCase()) + 1, text: match[2]! }));
    const count = howMany === undefined ? expected.length : (NUMBERS[howMany.toLowerCase()] ?? Number(howMany));
    if (expected.length < 2 || expected.length !== count || expected.some((entry, index) => entry.at !== index + 1)) return whole;
    const thing = things.trim().replace(/ies$/i, 'y').replace(/(?<!s)s$/i, '');
    const sentences = expected.map(({ at, text }) => `${verb} the ${ORDINALS[at - 1]!} ${thing}, then check that the page shows ${text}`);
    return sentences.map((sentence, index) => (index === 0 ? sentence : sentence.charAt(0).toUpperCase() + sentence.slice(1))).join('. ');
  });
}
