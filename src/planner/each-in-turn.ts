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

/**
 * Each of several links in turn, each to its own address: "click each of the menu items in turn (Home, About and
 * Contact) and check that each one takes you to its own address: About to /about/, Contact to /contact/, while Home
 * goes to the front page. Go back to the menu after each one." One click and one address check per name, in the
 * order listed, and "go back" after each when the task says so. Every name needs its address, or nothing changes.
 */
const EACH_TO_ADDRESS =
  /\b(click|open|follow|tap)\s+(?:on\s+)?each\s+of\s+the\s+[\w -]+?\s+in\s+turn\s*\(([^()]+)\)\s*,?\s+and\s+(?:check|verify|make sure|confirm)\s+(?:that\s+)?each\s+(?:one\s+)?(?:takes\s+you|leads|goes|links|navigates)\s+to\s+its\s+own\s+(?:address|page|url|path)\s*:\s*([^.]+)\.(\s*(?:then\s+)?go\s+back(?:\s+to\s+[^.]+?)?\s+after\s+each(?:\s+one)?\s*\.)?/gi;
const DESTINATION = /(?:^|,|\band\b|\bwhile\b)\s*([A-Z][\w' -]*?)\s+(?:to|goes to|leads to|takes you to|opens)\s+(\/\S*?|the\s+(?:front|home|start|landing|main)\s+page)(?=\s*(?:,|\band\b|\bwhile\b|$))/g;

export function expandEachToAddress(task: string): string {
  return task.replace(EACH_TO_ADDRESS, (whole: string, verb: string, list: string, destinations: string, back: string | undefined) => {
    const names = list.split(/\s*,\s*(?:and\s+)?|\s+and\s+/).map((name) => name.trim()).filter((name) => name !== '');
    const where = new Map([...destinations.matchAll(DESTINATION)].map((match) => [match[1]!.trim().toLowerCase(), match[2]!]));
    if (names.length < 2 || names.some((name) => !where.has(name.toLowerCase()))) return whole;
    const sentences = names.map((name) => {
      const place = where.get(name.toLowerCase())!;
      const check = place.startsWith('/') ? `check that the address contains ${place}` : `check that I am on ${place}`;
      return `${verb} ${JSON.stringify(name)}, then ${check}.${back === undefined ? '' : ' Go back.'}`;
    });
    return sentences.map((sentence, index) => (index === 0 ? sentence : sentence.charAt(0).toUpperCase() + sentence.slice(1))).join(' ');
  });
}
