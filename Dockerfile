# syntax=docker/dockerfile:1
# Rideway's image (issue 23 point 5): the compiled server (apps/server/dist) and the built web app
# on Node LTS, run as a user without privileges. Operations: docs/operations.md.
#
#   docker build -t rideway .
#   docker run -p 3000:3000 rideway          # the embedded database and demo data, in the volume
#
# deploy/dockerfile-dry-run.mjs runs these same lines without a container runtime (it reads this
# file): keep RUN lines to relative paths under WORKDIR, and user ids numeric.
# Reference: https://docs.docker.com/reference/dockerfile/

ARG NODE_VERSION=22

# Every workspace's manifest and the lockfile: `npm ci` needs all of them to check the lockfile.
FROM node:${NODE_VERSION}-bookworm-slim AS manifests
WORKDIR /app
COPY package.json package-lock.json .npmrc tsconfig.base.json ./
COPY packages/domain/package.json packages/domain/
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/

# Everything the builds need, exactly as locked. No package's install script runs: the native
# parts (esbuild, rolldown, sharp, argon2) come as prebuilt optional packages.
FROM manifests AS deps
RUN npm ci --ignore-scripts --no-audit --no-fund

# The server (esbuild: dist/main.js, dist/check-config.js, the migrations and the gazetteer) and
# the web app (Vite: apps/web/dist).
FROM deps AS build
COPY packages packages
COPY apps/server apps/server
COPY apps/web apps/web
RUN npm run build -w @rideway/server && npm run build -w @rideway/web

# The server's production dependencies only (dist/ imports them at run time: PGlite, sharp, the
# providers' SDKs); the web app's are bundled into its build.
FROM manifests AS production-deps
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund --workspace=@rideway/server --include-workspace-root

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# The container's defaults: every address of the container (a published port reaches it), the
# embedded database and uploads under /app/data (the volume). Secrets are never baked in: they
# come from the environment at run time (deploy/rideway.env.example names them).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=production-deps /app/node_modules node_modules
# The server's own versions where they differ from the hoisted ones (pbf 5, jose 6, ...).
COPY --from=production-deps /app/apps/server/node_modules apps/server/node_modules
COPY --from=build /app/apps/server/package.json apps/server/
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/package.json apps/web/
COPY --from=build /app/apps/web/dist apps/web/dist
# The server finds the web app through its workspace link (src/http/web-app.ts), which an
# install of the server's workspace alone does not make. The data folder belongs to the user
# the server runs as: 1000 is the base image's `node`, numeric so that an orchestrator can check
# that it is not root (Kubernetes' runAsNonRoot cannot check a name).
RUN ln -s ../../apps/web node_modules/@rideway/web && mkdir data && chown 1000:1000 data
USER 1000:1000
WORKDIR /app/apps/server
EXPOSE 3000
VOLUME ["/app/data"]
# Liveness only: readiness (/api/health/ready) is the load balancer's question, and a process
# whose database is away must not be killed for it (docs/operations.md, "Health"). A first start
# on the embedded database (its files made, migrated, the demo seeded) took 35 to 60 s on a busy
# 2-core machine; on PostgreSQL a few seconds.
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1 and handles SIGTERM (a graceful shutdown bounded by SHUTDOWN_GRACE_MS).
# A young generation of 4 MB a half instead of 16: 20 to 25 MB less resident, same throughput
# (docs/decisions.md, "The server's young generation"); every way of starting the server says the same.
CMD ["node", "--enable-source-maps", "--max-semi-space-size=4", "dist/main.js"]
