import { InstallProvider, type Installation, type InstallURLOptions } from '@slack/oauth';
import { Router } from 'express';
import type { InstalledWorkspace } from '../../src/jobs/chat/chat-workspaces.js';
import type { Logger } from '../../src/logger.js';
import { ErrorCode, userError } from '../../src/core/errors.js';
import { boltLogger } from '../bolt-logger.js';
import { escapeHtml } from './html.js';
import { oneTimeStateStore, STATE_LIFETIME_SECONDS } from './one-time-state.js';

export const INSTALL_PATH = '/api/chat/install';
export const REDIRECT_PATH = '/api/chat/oauth_redirect';

/** The fewest bot scopes that work (manifest.yml lists the same). */
export const BOT_SCOPES = ['app_mentions:read', 'chat:write', 'channels:history', 'groups:history', 'im:history', 'commands'];

export interface OAuthSettings {
  clientId: string;
  clientSecret: string;
  /** Signs the `state` parameter (good once, for 10 minutes); InstallProvider also binds it to a cookie of the browser that started. */
  stateSecret: string;
  /** Slack's Web API base, for `oauth.v2.access`. */
  apiUrl: string;
  /** `{PUBLIC_BASE_URL}/api/chat/oauth_redirect`, as registered in the app's settings. */
  redirectUri: string;
  /** Slack's authorize page (default Slack's own; tests point it at the fake). */
  authorizationUrl?: string;
}

export interface OAuthDeps {
  /** Stores the installation with its bot token encrypted; the workspace serves no organization until connected. */
  saveInstallation(installation: InstalledWorkspace): Promise<void>;
  logger: Logger;
}

/**
 * Distribution to many workspaces: Slack's OAuth v2 install flow through `@slack/oauth`'s InstallProvider.
 * `GET /api/chat/install` sends the person to Slack with a signed `state` (and the same state in a cookie);
 * `GET /api/chat/oauth_redirect` checks both, exchanges the code (`oauth.v2.access`) and stores the installation.
 * An installed workspace serves no organization until an administrator connects it (`qa chat connect`): whoever
 * clicks "Add to Slack" must not be able to attach their workspace to someone else's organization.
 */
export function createInstallRoutes(settings: OAuthSettings, deps: OAuthDeps): Router {
  const installUrlOptions: InstallURLOptions = { scopes: BOT_SCOPES, redirectUri: settings.redirectUri };
  const installer = new InstallProvider({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    stateStore: oneTimeStateStore(settings.stateSecret, STATE_LIFETIME_SECONDS),
    stateCookieExpirationSeconds: STATE_LIFETIME_SECONDS,
    installUrlOptions,
    directInstall: true,
    ...(settings.authorizationUrl ? { authorizationUrl: settings.authorizationUrl } : {}),
    clientOptions: { slackApiUrl: settings.apiUrl, retryConfig: { retries: 0 } },
    logger: boltLogger(deps.logger.child({ component: 'chat-oauth' })),
    installationStore: {
      async storeInstallation(installation: Installation) {
        if (!installation.team || !installation.bot) {
          // The failure page shows the code: the person installing sees why.
          throw userError(ErrorCode.ChatInstallationUnsupported, 'Only workspace installations with a bot user are supported');
        }
        await deps.saveInstallation({
          teamId: installation.team.id,
          teamName: installation.team.name ?? null,
          botUserId: installation.bot.userId,
          botToken: installation.bot.token,
          installedBy: installation.user.id,
        });
      },
      async fetchInstallation() {
        // Tokens are read through the workspaces use case, never through the installer: no route of ours calls this
        // (InstallProvider calls it only from `authorize`), so reaching it is a bug, not a caller's error.
        throw new Error('the install routes do not authorize requests');
      },
    },
  });
  const router = Router();
  router.get(INSTALL_PATH, (req, res, next) => {
    installer.handleInstallPath(req, res, {}, installUrlOptions).catch(next);
  });
  router.get(REDIRECT_PATH, (req, res, next) => {
    installer
      .handleCallback(req, res, {
        success: (installation, _options, _req, response) => {
          const team = installation.team?.id ?? 'unknown';
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          response.end(page('Installed', `The QA bot is installed in ${escapeHtml(installation.team?.name ?? team)}. An administrator of the service connects it to an organization with <code>qa chat connect --team ${escapeHtml(team)} --org &lt;slug&gt;</code>; until then the bot only says how.`));
        },
        failure: (error, _options, _req, response) => {
          deps.logger.warn({ code: error.code, message: error.message }, 'chat install failed');
          response.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          response.end(page('Not installed', `The installation did not complete (${escapeHtml(error.code)}). Start again from the install link.`));
        },
      })
      .catch(next);
  });
  return router;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${body}</p></body></html>`;
}
