# syntax=docker/dockerfile:1
# Build: compile TypeScript with the dev dependencies.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
COPY bench ./bench
RUN npm run build

# Run: production dependencies only, as an unprivileged user, against DATABASE_URL.
FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=3000 DEMO_ORG=false
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY views ./views
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# main.js applies pending migrations (under an advisory lock) and then serves; it needs DATABASE_URL.
CMD ["node", "dist/src/main.js"]
