# Production image: build TypeScript and the web console in one stage, run the compiled JS as a
# non-root user. Not run on the development machines (no Docker engine there); kept correct by reading.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` compiles the CLI from src/, which is not copied yet; `npm run build` does it below.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY console ./console
# `npm run build` compiles src/ to dist/ and builds the console into console/dist/; then the dev
# dependencies (TypeScript, Vite, React: bundled into console/dist already) are dropped.
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data RULES_DIR=/app/rules
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# dist/console/routes.js serves ../../console/dist, i.e. /app/console/dist.
COPY --from=build /app/console/dist ./console/dist
# dist/http/docs.js reads the version for /openapi.json from ../../package.json.
COPY package.json ./
COPY rules ./rules
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# ROLE=worker serves no HTTP: its health is the process itself (the orchestrator restarts it on exit).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s CMD node -e "if (process.env.ROLE === 'worker') process.exit(0); fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# A 32 MiB young generation and no allocation-site pretenuring keep the API's GC pauses short
# under request load (docs/DEPLOY.md, docs/BENCHMARKS.md "Scale").
CMD ["node", "--max-semi-space-size=32", "--no-allocation-site-pretenuring", "dist/main.js"]
