import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { CHAT_WEBHOOK_PATH } from '../../../bot/app.js';
import { SLASH_COMMAND } from '../../../bot/listeners/commands/qa.js';
import { BOT_SCOPES, REDIRECT_PATH } from '../../../bot/oauth/install-routes.js';

type Node = string | boolean | Node[] | { [key: string]: Node };

/**
 * The part of YAML manifest.yml uses: nested maps by indentation, lists of scalars or of maps (`- key: value`),
 * quoted or plain scalars, `#` comments on their own lines. Anything else fails the test rather than parse wrongly.
 */
function parseManifest(text: string): Node {
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#')).map((line) => ({ indent: line.search(/\S/), text: line.trim() }));
  let at = 0;
  const scalar = (raw: string): Node => (raw === 'true' ? true : raw === 'false' ? false : raw.replace(/^"(.*)"$/, '$1'));
  function block(indent: number): Node {
    if (lines[at]!.text.startsWith('- ')) {
      const list: Node[] = [];
      while (at < lines.length && lines[at]!.indent === indent && lines[at]!.text.startsWith('- ')) {
        const item = lines[at]!.text.slice(2);
        if (/^[\w.]+:( |$)/.test(item)) {
          // `- key: value` opens a map whose other keys sit under `key`.
          lines[at] = { indent: indent + 2, text: item };
          list.push(block(indent + 2));
        } else {
          list.push(scalar(item));
          at += 1;
        }
      }
      return list;
    }
    const map: { [key: string]: Node } = {};
    while (at < lines.length && lines[at]!.indent === indent) {
      const match = /^([\w.]+):(?: (.*))?$/.exec(lines[at]!.text);
      if (!match) throw new Error(`manifest.yml: cannot read line "${lines[at]!.text}"`);
      at += 1;
      map[match[1]!] = match[2] !== undefined ? scalar(match[2]) : block(lines[at]!.indent);
    }
    return map;
  }
  return block(0);
}

/** The Slack app's manifest (top level) must agree with the routes and the scopes the install asks for. */
describe('manifest.yml', () => {
  const manifest = parseManifest(readFileSync(new URL('../../../manifest.yml', import.meta.url), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a parsed document, read field by field

  it('asks for exactly the bot scopes the OAuth install asks for', () => {
    expect(manifest.oauth_config.scopes.bot).toEqual(BOT_SCOPES);
  });

  it('points events, interactivity and the slash command at the receiver, and the OAuth redirect at its route', () => {
    const receiver = `{base_url}${CHAT_WEBHOOK_PATH}`;
    expect(manifest.settings.event_subscriptions.request_url).toBe(receiver);
    expect(manifest.settings.interactivity).toEqual(expect.objectContaining({ is_enabled: true, request_url: receiver }));
    expect(manifest.features.slash_commands).toEqual([expect.objectContaining({ command: SLASH_COMMAND, url: receiver })]);
    expect(manifest.oauth_config.redirect_urls).toEqual([`{base_url}${REDIRECT_PATH}`]);
    expect(receiver).toBe('{base_url}/api/webhooks/chat');
    expect(REDIRECT_PATH).toBe('/api/chat/oauth_redirect');
  });

  it('subscribes to mentions and channel messages (thread replies), with Socket Mode off by default', () => {
    expect(manifest.settings.event_subscriptions.bot_events).toEqual(expect.arrayContaining(['app_mention', 'message.channels']));
    expect(manifest.settings.socket_mode_enabled).toBe(false);
    expect(manifest.features.bot_user).toEqual(expect.objectContaining({ display_name: expect.any(String) }));
  });
});
