/** Slack's mrkdwn needs `&`, `<` and `>` escaped in text that came from elsewhere (a task, a page's wording). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
