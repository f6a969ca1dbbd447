# syntax=docker/dockerfile:1
# One image for the api (default command) and the worker (docker-compose.yml overrides the command).

FROM node:24-bookworm-slim AS base
WORKDIR /app
ENV npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# Only the manifests, so the dependency layers stay cached until one of them changes.
FROM base AS manifests
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY api/package.json api/
COPY worker/package.json worker/
COPY web/package.json web/
COPY infra/package.json infra/

FROM manifests AS build
RUN --mount=type=cache,target=/root/.npm npm ci
COPY . .
RUN npm run build

# Production dependencies from a clean install rather than `npm prune`: the workspace packages stay
# linked (node_modules/@schlosstreffen/* -> ../../<workspace>) and no build tooling is left behind.
FROM manifests AS prod-deps
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev

FROM base AS runtime
ENV NODE_ENV=production
# pg_dump and pg_restore of the compose file's PostgreSQL (17) for backup:create and backup:restore:
# they must match the server's major version, and bookworm ships 15, so from the PGDG repository.
# /backups belongs to node and is its alone (0700), so the backups volume created from it is too.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates curl gnupg \
  && install -d /usr/share/postgresql-common/pgdg \
  && curl -fsSL -o /usr/share/postgresql-common/pgdg/apt.postgresql.org.asc https://www.postgresql.org/media/keys/ACCC4CF8.asc \
  && echo "deb [signed-by=/usr/share/postgresql-common/pgdg/apt.postgresql.org.asc] https://apt.postgresql.org/pub/repos/apt bookworm-pgdg main" > /etc/apt/sources.list.d/pgdg.list \
  && apt-get update \
  && apt-get install -y --no-install-recommends postgresql-client-17 \
  && apt-get purge -y --auto-remove curl gnupg \
  && rm -rf /var/lib/apt/lists/* \
  && install -d -m 0700 -o node -g node /backups
# node_modules, workspace-local node_modules if any, and every package.json.
COPY --from=prod-deps /app ./
COPY --from=build /app/shared/dist shared/dist
COPY --from=build /app/api/dist api/dist
COPY --from=build /app/worker/dist worker/dist
COPY --from=build /app/web/dist web/dist
# The server build of the public pages, which the api renders.
COPY --from=build /app/web/dist-server web/dist-server
USER node
EXPOSE 3000
CMD ["node", "api/dist/main.js"]
