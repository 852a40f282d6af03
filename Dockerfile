# syntax=docker/dockerfile:1
# Image of the trading control service: `tcs <command>` (api, trade, audit verify, keygen).
# It runs the compiled JavaScript (dist/, with source maps) on production dependencies only; tsx
# stays among them so a TypeScript strategy given by path still loads (lazily, only then).
# Configuration and secrets come from the environment at run time (see .env.example); none are baked in.

# ---- build: every dependency (TypeScript too), with the toolchain better-sqlite3 needs when no
# prebuilt binary fits; compile, then drop the dev dependencies.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# bin/ first: npm ci runs the prepare script (node bin/build.mjs --if-stale), which finds no src/ yet
# and builds nothing, so the dependency layer stays cached across source changes.
COPY package.json package-lock.json ./
COPY bin ./bin
RUN npm ci && npm cache clean --force
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY machines ./machines
# The operator console's sources: the build bundles them into dist/console, which the API serves at /.
COPY console ./console
RUN npm run build \
 && rm dist/.tsbuildinfo \
 && npm prune --omit=dev \
 && npm cache clean --force

# ---- runtime: dist/ and production dependencies, no compilers, no sources, non-root
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# package.json: "type": "module" for dist/, and the version the API reports.
COPY package.json ./
COPY bin/tcs.mjs ./bin/tcs.mjs
# var/ holds the default SQLite store (STORE_URL=sqlite:var/tcs.db) and latch/ the trading latch
# (a compose volume); both for the service's user only. The code itself stays read-only.
RUN mkdir -p var latch && chown node:node var latch && chmod 700 var latch
USER node
ENTRYPOINT ["node", "bin/tcs.mjs"]
CMD ["--help"]
