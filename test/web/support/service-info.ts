/** What the dashboard's test service (serve.ts) tells the tests: types only, shared by both sides. */
export interface OrganizationInfo {
  slug: string;
  organizationId: string;
  /** An API key of the organization (for a test that prepares data through the API, as a CI client would). */
  key: string;
  /** A repository whose base URL is the demo app. */
  repositoryId: string;
  /** An active check of that repository. */
  checkId: string;
}

export interface ServiceInfo {
  /** The service (PUBLIC_BASE_URL), http on loopback. */
  base: string;
  /** The control server (control-actions.ts). */
  controlUrl: string;
  /** The demo app, the site jobs run against. */
  demoUrl: string;
  /** IDENTITY_WEBHOOK_SIGNING_SECRET of the service. */
  webhookSecret: string;
  organizations: { acme: OrganizationInfo; globex: OrganizationInfo };
}
