# syntax=docker/dockerfile:1
# Production image: Node 24 LTS, better-sqlite3 compiled from source, dev dependencies
# pruned, runs as the unprivileged `node` user.
#   docker build -t configurator-service .
#   docker run -p 3000:3000 -e JWT_SECRET=... -e DATABASE_URL=postgres://... configurator-service
# Node 24.18.1, not the newest 24: better-sqlite3 compiled against Node >= 24.19 headers
# aborts the process when a statement is garbage-collected (src/database/sqlite-gc-probe.ts;
# docs/OPERATIONS.md, "SQLite on Node 24"). The build below fails if a newer image has it.
ARG NODE_IMAGE=node:24.18.1-slim

# ---- build: compile native addons and TypeScript --------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
# Native addons are built here, for this image's Node and libc, never downloaded prebuilt
# (.prebuild-installrc: buildFromSource).
COPY package.json package-lock.json .prebuild-installrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY scripts/build.mjs scripts/remove-orphans.mjs ./scripts/
COPY src ./src
# Then keep only the compiled addon of better-sqlite3 (its C sources, objects and static
# library are build leftovers of about 25 MB) and check that it loads and survives the
# garbage collection of its statements (the probe the service runs at start on Node >= 24.19).
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && cd node_modules/better-sqlite3 \
  && find build -mindepth 1 -maxdepth 1 ! -name Release -exec rm -rf {} + \
  && find build/Release -mindepth 1 -maxdepth 1 ! -name better_sqlite3.node -exec rm -rf {} + \
  && rm -rf deps src \
  && cd /app \
  && node --input-type=module -e "const { probeSqliteGc } = await import('/app/dist/src/database/sqlite-gc-probe.js'); const probe = probeSqliteGc(); if (!probe.ok) { console.error('better-sqlite3 GC probe: ' + probe.detail); process.exit(1); }"

# ---- runtime ----------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data
# V8's default young generation (16 MB semi-spaces) on purpose: 32 MB cuts a 5,000-question
# evaluation's CPU by 20-40 % but makes the scavenges of an upload or cache miss pause the
# event loop past 50 ms (docs/adr/0039-no-gc-flags-and-pod-sizing.md). Set
# NODE_OPTIONS="--max-semi-space-size=32" to trade those pauses for throughput.
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# DATA_DIR holds the SQLite file when DATABASE_URL is unset; mount a volume there.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
VOLUME ["/app/data"]
# node:*-slim has no curl: the probe is a one-line fetch with Node itself.
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/src/main.js"]
