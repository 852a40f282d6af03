# syntax=docker/dockerfile:1
# Image of the trading control service: `tcs <command>` (api, trade, audit verify, keygen).
# The TypeScript sources run directly through tsx (a runtime dependency), so there is no compile step.
# Configuration and secrets come from the environment at run time (see .env.example); none are baked in.

# ---- build: production dependencies, with the toolchain better-sqlite3 needs when no prebuilt binary fits
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

# ---- runtime: no compilers, non-root
FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY machines ./machines
# var/ holds the default SQLite store (STORE_URL=sqlite:var/tcs.db); the code itself stays read-only.
RUN mkdir -p var && chown node:node var
USER node
ENTRYPOINT ["node", "bin/tcs.mjs"]
CMD ["--help"]
