# One image for all six services; the Helm chart picks the service with the container args
# (services/<name>/main.mjs). Built where a Docker engine and the npm registry are reachable.
# Node 24 (LTS): Node 20 reached its end of life on 2026-04-30 (docs/operations.md, "Runtime: which Node.js").
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npx --yes pnpm@9.15.9 install --frozen-lockfile \
 && node scripts/gen-proto.mjs \
 && node scripts/build.mjs

FROM gcr.io/distroless/nodejs24-debian12:nonroot
WORKDIR /app
COPY --from=build /src/dist /app
USER 10001
ENV NODE_ENV=production
ENTRYPOINT ["/nodejs/bin/node", "--enable-source-maps"]
