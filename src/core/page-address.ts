/**
 * Whether the page's address already names the page a task asked for by name: every word of the name, apart from
 * words that only say it is a page ("page", "example", "demo"), is a word of the URL's path, numbers included
 * ("Dynamic Loading example 2" is /dynamic_loading/2, not /dynamic_loading/1). The run then stays there; what the
 * page must show is checked by the task's own expectations.
 */
const PAGE_WORDS = new Set(['page', 'screen', 'view', 'section', 'area', 'example', 'demo', 'exercise', 'sample', 'lesson', 'tutorial', 'challenge', 'scenario', 'variant', 'the', 'a', 'an', 'of']);

function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z0-9]+/).filter((word) => word !== '');
}

export function addressNamesPage(url: string, name: string): boolean {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return false;
  }
  const wanted = words(name).filter((word) => !PAGE_WORDS.has(word));
  const pathWords = new Set(words(path));
  // A number alone says too little ("example 2" is any site's /2): the name needs a word of its own too.
  return wanted.some((word) => !/^\d+$/.test(word)) && wanted.every((word) => pathWords.has(word));
}
