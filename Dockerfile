# syntax=docker/dockerfile:1
# Production image: Node 24 LTS, dev dependencies pruned, runs as the unprivileged `node`
# user.
#   docker build -t configurator-service .
#   docker run -p 3000:3000 -e JWT_SECRET=... -e DATABASE_URL=postgres://... configurator-service
# The newest Node 24 (security releases arrive with a rebuild): better-sqlite3 13 is an
# N-API addon whose prebuilt binaries ship inside its npm package, so nothing is compiled
# and no Node 24 minor is excluded (docs/adr/0090-node-24-and-better-sqlite3-13.md).
ARG NODE_IMAGE=node:24-slim

# ---- build: TypeScript, then the production dependencies only ---------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ormconfig.ts ./
COPY scripts/build.mjs scripts/build-web.mjs scripts/remove-orphans.mjs ./scripts/
COPY src ./src
# Swagger UI's upload example (copied into dist/ by the build).
COPY examples/window.yaml ./examples/
# The browser pages (web/, bundled into dist/app; their API types are erased, so test/
# stays out of the context).
COPY web ./web
# better-sqlite3's SQLite sources and the other platforms' prebuilt binaries are not needed
# at run time (about 25 MB): keep this platform's binary only.
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && cd node_modules/better-sqlite3 \
  && rm -rf deps src binding.gyp \
  && find prebuilds -type f ! -name "linux-$(node -p process.arch).node" -delete

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
