# syntax=docker/dockerfile:1
# The service as one image for its three roles: `serve`, `worker` or `start` (the default), with `qa` as the entry
# point (`docker run <image> migrate`, `… keys create --org acme`). Debian (bookworm) with Debian's
# chromium-headless-shell, the browser the service drives by default (BROWSER_EXECUTABLE_PATH); git for onboarding's
# clones. Non-root, no dev dependencies. See docs/operations.md.

ARG NODE_IMAGE=node:22-bookworm-slim

# Build: dependencies with their native addon (better-sqlite3 compiles here), the CLI and the dashboard, then the dev
# dependencies pruned away.
FROM ${NODE_IMAGE} AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm rebuild better-sqlite3 && npm run build && npm prune --omit=dev --ignore-scripts

# Runtime: Node, Chromium's headless shell, git and the built service.
FROM ${NODE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium-headless-shell git ca-certificates tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    LOG_FORMAT=json \
    SQLITE_PATH=/data/qa.sqlite \
    ARTIFACTS_DIR=/data/artifacts \
    BROWSER_EXECUTABLE_PATH=/usr/bin/chromium-headless-shell
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY docker/entrypoint.sh /usr/local/bin/qa-entrypoint
RUN install -d -o node -g node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# tini reaps Chromium's children and passes SIGTERM on, so a stopping container lets runs finish (SHUTDOWN_GRACE_MS).
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/qa-entrypoint"]
CMD ["start"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
