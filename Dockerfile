# The server's image: `npm ci --omit=dev` in a first stage, then the sources and those modules in a
# slim runtime stage that runs as the unprivileged `node` user. `npm start` (tsx bin/start.ts: tsx is
# a runtime dependency, no build step) serves DATA_DIR; in production (as here) it refuses a DATA_DIR
# holding generated sample data, or none, unless ALLOW_SAMPLE_DATA=true (then it builds the sample
# into an empty DATA_DIR on first start, and every answer says sample). Data, the revenue ledger and
# the local payment store live under /app/data (a volume).
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data/parquet \
    SAMPLE_DIR=/app/data/sample \
    REVENUE_LEDGER=/app/data/revenue/ledger.jsonl
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME /app/data
EXPOSE 3000
# Liveness: /healthz answers once the snapshot is loaded (a first start with ALLOW_SAMPLE_DATA=true builds the samples: allow for it).
HEALTHCHECK --interval=15s --timeout=5s --start-period=300s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["npm", "start"]
